const SGR = /\u001b\[[0-9;]*m/g;
/** What makes a string's width differ from its length: a style's escape, or a surrogate pair. */
const NOT_ONE_A_UNIT = /[\u001b\ud800-\udfff]/;

/** How many columns styled text takes: its SGR codes take none. */
export function visibleWidth(text: string): number {
  return NOT_ONE_A_UNIT.test(text) ? [...text.replace(SGR, '')].length : text.length;
}

/**
 * Styled text wrapped at `width` columns, at spaces: the first line after `first`, the others
 * after `rest` (a list item's hanging indent, a quote's bar). A word longer than a line is cut.
 */
export function wrapStyled(text: string, width: number, first = '', rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  const firstWidth = visibleWidth(first);
  const restWidth = visibleWidth(rest);
  const room = Math.max(10, width - restWidth);
  let used = firstWidth;
  const atStart = () => used === (lines.length === 0 ? firstWidth : restWidth);
  const flush = () => {
    lines.push(line);
    line = rest;
    used = restWidth;
  };
  for (const word of text.split(/ +/)) {
    let w = visibleWidth(word);
    if (w === 0 && word === '') continue;
    if (!atStart() && used + 1 + w > width) flush();
    let piece = word;
    // A word wider than the line (a URL, a hash) is cut where the line ends.
    while (w > room && visibleWidth(piece.replace(SGR, '')) === w && !piece.includes('\u001b')) {
      const start = atStart();
      const take = Math.max(1, width - used - (start ? 0 : 1));
      line += (start ? '' : ' ') + piece.slice(0, take);
      flush();
      piece = piece.slice(take);
      w = visibleWidth(piece);
    }
    const start = atStart();
    line += (start ? '' : ' ') + piece;
    used += (start ? 0 : 1) + w;
  }
  lines.push(line);
  return lines;
}
