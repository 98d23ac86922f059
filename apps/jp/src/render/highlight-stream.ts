import { highlightLines } from './highlight-code.ts';
import type { RenderStyles } from './render-styles.ts';

/**
 * A code block highlighted a line at a time as it arrives. What it keeps between lines is the code
 * since it was last outside any construct: a line that continues a string or a comment is
 * highlighted with the lines that opened it, and a line after closed code on its own.
 * (highlight.js 11 keeps its parser state only inside one call, so the state is those lines.)
 */
export class HighlightStream {
  private open: string[] = [];

  constructor(
    private readonly language: string,
    private readonly styles: RenderStyles,
  ) {}

  line(text: string): string {
    this.open.push(text);
    const { lines, closed } = highlightLines(this.open.join('\n'), this.language, this.styles);
    if (closed) this.open = [];
    return lines[lines.length - 1]!;
  }
}
