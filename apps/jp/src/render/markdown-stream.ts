import { visibleText } from '../output/terminal-text.ts';
import { knownLanguage } from './highlight-code.ts';
import { HighlightStream } from './highlight-stream.ts';
import { renderInline } from './render-inline.ts';
import type { RenderStyles } from './render-styles.ts';
import { renderTable } from './render-table.ts';
import { wrapStyled } from './wrap-styled.ts';

/** An open fenced code block. */
interface Fence {
  marker: string;
  highlight: HighlightStream | undefined;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;
const ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const TABLE_ROW = /^[ \t]*\|.*\|[ \t]*$/;

/**
 * Markdown rendered for a terminal as it streams: each line is rendered when it is complete and
 * never redrawn; a code block line by line as it arrives (highlighted with what came before it, so
 * a multi-line string keeps its colour); a table when it ends, fitted to the width. Text is made
 * visible (terminal-text.ts) before it is parsed, so the only escapes written are the styles'.
 */
export class MarkdownStream {
  private pending = '';
  private fence: Fence | undefined;
  private table: string[] = [];

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: { width: number; styles: RenderStyles },
  ) {}

  push(text: string): void {
    this.pending += text;
    let at = this.pending.indexOf('\n');
    while (at !== -1) {
      const line = this.pending.slice(0, at).replace(/\r$/, '');
      this.pending = this.pending.slice(at + 1);
      this.line(visibleText(line));
      at = this.pending.indexOf('\n');
    }
  }

  /** The answer ended: what is left is rendered, an open table printed, an open fence left as it is. */
  end(): void {
    if (this.pending !== '') {
      const line = this.pending;
      this.pending = '';
      this.line(visibleText(line));
    }
    this.flushTable();
    this.fence = undefined;
  }

  private out(lines: readonly string[]): void {
    this.write(`${lines.join('\n')}\n`);
  }

  private line(line: string): void {
    const { styles, width } = this.options;
    if (this.fence !== undefined) {
      this.codeLine(line);
      return;
    }
    if (TABLE_ROW.test(line)) {
      this.table.push(line);
      return;
    }
    this.flushTable();
    const fence = FENCE.exec(line);
    if (fence !== null && !(fence[1]!.startsWith('`') && fence[2]!.includes('`'))) {
      const language = knownLanguage(fence[2]!);
      this.fence = { marker: fence[1]!, highlight: language === undefined ? undefined : new HighlightStream(language, styles) };
      this.out([styles.marker(line.trim())]);
      return;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      const level = heading[1]!.length;
      this.out(wrapStyled(styles.heading(`${'#'.repeat(level)} ${renderInline(heading[2]!, styles)}`, level), width));
      return;
    }
    if (RULE.test(line)) {
      this.out([styles.rule('─'.repeat(Math.min(width, 80)))]);
      return;
    }
    const quote = QUOTE.exec(line);
    if (quote !== null) {
      const bar = styles.quote('│ ');
      this.out(wrapStyled(styles.quote(renderInline(quote[1]!, styles)), width, bar, bar));
      return;
    }
    const item = ITEM.exec(line);
    if (item !== null) {
      const indent = ' '.repeat(Math.min(item[1]!.replace(/\t/g, '  ').length, Math.floor(width / 2)));
      const bullet = /^[-*+]$/.test(item[2]!) ? '•' : item[2]!;
      this.out(wrapStyled(renderInline(item[3]!, styles), width, `${indent}${styles.marker(bullet)} `, `${indent}${' '.repeat(bullet.length + 1)}`));
      return;
    }
    if (line.trim() === '') {
      this.out(['']);
      return;
    }
    const lead = /^[ \t]*/.exec(line)![0];
    this.out(wrapStyled(renderInline(line.trim(), styles), width, lead, lead));
  }

  private codeLine(line: string): void {
    const fence = this.fence!;
    const close = FENCE.exec(line);
    if (close !== null && close[2]!.trim() === '' && close[1]![0] === fence.marker[0] && close[1]!.length >= fence.marker.length) {
      this.fence = undefined;
      this.out([this.options.styles.marker(line.trim())]);
      return;
    }
    this.out([fence.highlight === undefined ? line : fence.highlight.line(line)]);
  }

  private flushTable(): void {
    if (this.table.length === 0) return;
    const rows = this.table;
    this.table = [];
    const table = renderTable(rows, this.options.width, this.options.styles);
    if (table !== undefined) this.out(table);
    else for (const row of rows) this.out(wrapStyled(renderInline(row.trim(), this.options.styles), this.options.width));
  }
}
