import { MarkdownStream } from './markdown-stream.ts';
import { renderStyles } from './render-styles.ts';

/** An answer writer that renders Markdown for a terminal `width` columns wide. */
export function markdownWriter(write: (text: string) => void, options: { width: number; color: boolean }): { write(text: string): void; end(): void } {
  const stream = new MarkdownStream(write, { width: options.width, styles: renderStyles(options.color) });
  return { write: (text) => stream.push(text), end: () => stream.end() };
}
