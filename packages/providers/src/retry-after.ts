/**
 * How long the vendor asked us to wait before retrying, from the `retry-after-ms` or
 * `retry-after` (seconds or an HTTP date) header of the HTTP error behind a `ProviderError`
 * (its `cause`, an SDK error carrying `headers`). `undefined` when there is no usable hint.
 */
export function retryAfterMs(error: unknown, now: number = Date.now()): number | undefined {
  const headers = (error as { cause?: { headers?: unknown } } | undefined)?.cause?.headers;
  if (typeof headers !== 'object' || headers === null || typeof (headers as Headers).get !== 'function') return undefined;
  const get = (name: string) => (headers as Headers).get(name);
  const ms = Number(get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
