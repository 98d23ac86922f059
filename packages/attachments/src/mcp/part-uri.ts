/**
 * One `resources/read` may answer with several contents under the same URI (fastmcp does when a
 * resource function returns a list). jp stores one resource per URI, so the second and later of
 * them get a part marker in the fragment: `fixture://pair`, `fixture://pair#part=2`. The marker is
 * jp's: it is taken off again before the server is asked (refresh, declarations).
 */
const PART = /[#&]part=(\d+)$/;

/** `uri` as the n-th (1-based) content with that URI; the first keeps the URI as it is. */
export function partUri(uri: string, n: number): string {
  if (n <= 1) return uri;
  return `${uri}${uri.includes('#') ? '&' : '#'}part=${n}`;
}

/** The server's URI and the part number of a URI `partUri` made (1 when it has no marker). */
export function splitPartUri(uri: string): { uri: string; part: number } {
  const match = PART.exec(uri);
  return match === null ? { uri, part: 1 } : { uri: uri.slice(0, match.index), part: Number(match[1]) };
}

/** The items with each repeated URI numbered in order (pure): every item keeps a distinct URI. */
export function numberRepeatedUris<T extends { uri: string }>(items: readonly T[]): T[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const n = (seen.get(item.uri) ?? 0) + 1;
    seen.set(item.uri, n);
    return n === 1 ? item : { ...item, uri: partUri(item.uri, n) };
  });
}
