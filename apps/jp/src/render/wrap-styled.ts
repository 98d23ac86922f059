const SGR = /\u001b\[[0-9;]*m/g;

/** How many columns styled text takes: its SGR codes take none. */
export function visibleWidth(text: string): number {
  return [...text.replace(SGR, '')].length;
}

/**
 * Styled text wrapped at `width` columns, at spaces: the first line after `first`, the others
 * after `rest` (a list item's hanging indent, a quote's bar). A word longer than a line is cut.
 */
export function wrapStyled(text: string, width: number, first = '', rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  let used = visibleWidth(first);
  const room = (prefix: string) => Math.max(10, width - visibleWidth(prefix));
  const flush = () => {
    lines.push(line);
    line = rest;
    used = visibleWidth(rest);
  };
  for (const word of text.split(/ +/)) {
    let w = visibleWidth(word);
    if (w === 0 && word === '') continue;
    const atStart = used === visibleWidth(lines.length === 0 ? first : rest);
    if (!atStart && used + 1 + w > width) flush();
    let piece = word;
    // A word wider than the line (a URL, a hash) is cut where the line ends.
    while (w > room(rest) && visibleWidth(piece.replace(SGR, '')) === w && !piece.includes('\u001b')) {
      const start = used === visibleWidth(lines.length === 0 ? first : rest);
      const take = Math.max(1, width - used - (start ? 0 : 1));
      line += (start ? '' : ' ') + piece.slice(0, take);
      flush();
      piece = piece.slice(take);
      w = visibleWidth(piece);
    }
    const start = used === visibleWidth(lines.length === 0 ? first : rest);
    line += (start ? '' : ' ') + piece;
    used += (start ? 0 : 1) + w;
  }
  lines.push(line);
  return lines;
}
