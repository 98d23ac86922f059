const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A key path as TOML writes it: `mcp.fx.env.TOKEN`, `mcp."my.server".command`; an array index as `.0`. */
export function formatKey(segments: readonly PropertyKey[]): string {
  return segments
    .map((segment) => (typeof segment === 'number' || (typeof segment === 'string' && BARE_KEY.test(segment)) ? String(segment) : JSON.stringify(String(segment))))
    .join('.');
}
