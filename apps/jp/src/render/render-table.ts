import { renderInline } from './render-inline.ts';
import type { RenderStyles } from './render-styles.ts';
import { visibleWidth, wrapStyled } from './wrap-styled.ts';

const DELIMITER = /^[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?\|?[ \t]*$/;

/** The cells of one `| a | b |` row (`\|` is a bar inside a cell). */
function cells(row: string): string[] {
  const inner = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/**
 * A GFM table drawn with box characters, its columns fitted to `width`: when the natural widths do
 * not fit, the widest columns give way first and their cells wrap. `undefined` when the rows are not
 * a table (no delimiter row second), to be printed as text.
 */
export function renderTable(rows: readonly string[], width: number, styles: RenderStyles): string[] | undefined {
  if (rows.length < 2 || !DELIMITER.test(rows[1]!)) return undefined;
  const header = cells(rows[0]!).map((cell) => styles.strong(renderInline(cell, styles)));
  const body = rows.slice(2).map((row) => cells(row).map((cell) => renderInline(cell, styles)));
  const columns = Math.max(header.length, ...body.map((row) => row.length));
  const all = [header, ...body].map((row) => Array.from({ length: columns }, (_, index) => row[index] ?? ''));
  const widths = Array.from({ length: columns }, (_, index) => Math.max(1, ...all.map((row) => visibleWidth(row[index]!))));
  // Borders and padding: "│ " before each column, " │" after the last.
  const frame = 3 * columns + 1;
  const room = Math.max(columns * 3, width - frame);
  while (widths.reduce((sum, w) => sum + w, 0) > room) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= 3) break;
    widths[widest]! -= 1;
  }
  const line = (left: string, mid: string, right: string) => styles.marker(`${left}${widths.map((w) => '─'.repeat(w + 2)).join(mid)}${right}`);
  const out = [line('┌', '┬', '┐')];
  all.forEach((row, index) => {
    const wrapped = row.map((cell, column) => wrapStyled(cell, widths[column]!));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    for (let i = 0; i < height; i += 1) {
      const parts = wrapped.map((lines, column) => {
        const text = lines[i] ?? '';
        return `${text}${' '.repeat(Math.max(0, widths[column]! - visibleWidth(text)))}`;
      });
      out.push(`${styles.marker('│')} ${parts.join(` ${styles.marker('│')} `)} ${styles.marker('│')}`);
    }
    if (index === 0) out.push(line('├', '┼', '┤'));
  });
  out.push(line('└', '┴', '┘'));
  return out;
}
