// Helpers for comparing Anthropic requests with cache markers aside.

/** A deep copy without any `cache_control`. */
export function stripCacheControl<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, field: unknown) => (key === 'cache_control' ? undefined : field))) as T;
}

/** How many `cache_control` markers a request carries. */
export function countCacheControl(request: unknown): number {
  return (JSON.stringify(request).match(/"cache_control"/g) ?? []).length;
}
