import type { CallRecord } from '../provider.ts';

interface WireMessage {
  id?: unknown;
  diagnostics?: { cache_miss_reason?: { type?: unknown; cache_missed_input_tokens?: unknown } | null } | null;
  input_transformations?: unknown;
}

/**
 * What `message_start` says of the call beyond the answer: the response's id, the cache-miss
 * reason Anthropic gives against the request `diagnostics.previous_message_id` named (null while
 * still pending: nothing recorded), and the thinking blocks it dropped under `drop_block`
 * (`input_transformations` entries of type `thinking_dropped`; other types are ignored, as the
 * preserved-thinking page asks).
 */
export function callRecord(message: unknown): CallRecord {
  const wire = (typeof message === 'object' && message !== null ? message : {}) as WireMessage;
  const record: CallRecord = {};
  if (typeof wire.id === 'string' && wire.id !== '') record.id = wire.id;
  const miss = wire.diagnostics?.cache_miss_reason;
  if (miss !== null && miss !== undefined && typeof miss.type === 'string') {
    record.cacheMiss = { reason: miss.type, ...(typeof miss.cache_missed_input_tokens === 'number' ? { missedTokens: miss.cache_missed_input_tokens } : {}) };
  }
  if (Array.isArray(wire.input_transformations)) {
    const dropped = wire.input_transformations.flatMap((entry: { type?: unknown; path?: unknown; reason?: unknown }) =>
      entry?.type === 'thinking_dropped' && typeof entry.path === 'string' ? [{ path: entry.path, reason: typeof entry.reason === 'string' ? entry.reason : 'unknown' }] : [],
    );
    if (dropped.length > 0) record.dropped = dropped;
  }
  return record;
}
