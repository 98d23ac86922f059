/**
 * An event as jp shows it to people and other programs (`conversation show -F json`): the
 * provider's opaque reasoning data (signatures, encrypted items) replaced by a marker saying it
 * exists and whose it is (RFD 028). It stays in the store, to be sent back to that provider.
 */
export function markOpaque<T extends object>(event: T): T {
  if (!('opaque' in event) || typeof event.opaque !== 'object' || event.opaque === null) return event;
  const { provider, items } = event.opaque as { provider?: unknown; items?: unknown };
  return { ...event, opaque: { provider, items: Array.isArray(items) ? items.length : 0, stored: true } };
}
