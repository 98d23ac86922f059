/** A UTF-16 surrogate: half of a character beyond U+FFFF, which UTF-8 writes in four bytes. */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * Sorts items in place by the UTF-8 byte order of their `relative` path, the order a listing of
 * paths has everywhere else (git, `LC_ALL=C ls`), and returns them.
 *
 * JavaScript compares strings by UTF-16 code units, which is the same order as UTF-8 bytes for
 * every character up to U+FFFF; only a character beyond it (stored as a surrogate pair, 0xD800–
 * 0xDFFF) sorts before U+E000–U+FFFF in UTF-16 and after them in UTF-8. So the paths are compared
 * as strings, without a byte copy of each, unless one of them holds such a character. The check
 * is one scan of all the paths joined, which costs less than a test per path.
 */
export function sortByUtf8Path<T extends { readonly relative: string }>(items: T[]): T[] {
  if (!SURROGATE.test(items.map((item) => item.relative).join(''))) {
    return items.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  }
  const keyed = items.map((item) => ({ item, key: Buffer.from(item.relative, 'utf8') }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  for (let index = 0; index < keyed.length; index++) items[index] = keyed[index]!.item;
  return items;
}
