/** RFC 3986 scheme and its colon. One letter is left out: `c:` reads as a drive, i.e. a path. */
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;

/** The lowercased URI scheme of an input, or `undefined` for a path or glob. */
export function schemeOf(input: string): string | undefined {
  return SCHEME.exec(input)?.[1]?.toLowerCase();
}
