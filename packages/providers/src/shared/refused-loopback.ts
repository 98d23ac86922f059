/** Whether an error, or anything it wraps (`cause`, an AggregateError's `errors`), is a refused connection. */
export function isConnectionRefused(error: unknown): boolean {
  return hasErrorCode(error, ['ECONNREFUSED']);
}

/** Whether an error, or anything it wraps, carries one of the system error `codes`. */
export function hasErrorCode(error: unknown, codes: readonly string[]): boolean {
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): boolean => {
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 6) return false;
    seen.add(value);
    const record = value as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof record.code === 'string' && codes.includes(record.code)) return true;
    if (Array.isArray(record.errors) && record.errors.some((inner) => visit(inner, depth + 1))) return true;
    return visit(record.cause, depth + 1);
  };
  return visit(error, 0);
}

/**
 * Whether a base URL names this machine: `localhost` (and `*.localhost`), 127.0.0.0/8 or `::1`.
 * Only the name is looked at; nothing is resolved.
 */
export function isLoopbackUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  const ipv4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return ipv4 !== null && ipv4.slice(1).every((octet) => Number(octet) <= 255);
}
