import type { FinishReason } from '../provider.ts';

const CONTENT_FILTER = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

const TOOL_ERRORS = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL', 'TOO_MANY_TOOL_CALLS']);

/**
 * Gemini's `finishReason` → ours. Gemini ends an answer that calls functions with `STOP`, so
 * `hasToolCalls` turns that into `tool-calls`. Unknown or missing reasons are `other`.
 */
export function mapGoogleFinishReason(finishReason: string | null | undefined, hasToolCalls = false): FinishReason {
  if (finishReason === 'STOP') return hasToolCalls ? 'tool-calls' : 'stop';
  if (finishReason === 'MAX_TOKENS') return 'length';
  if (finishReason != null && CONTENT_FILTER.has(finishReason)) return 'content-filter';
  if (finishReason != null && TOOL_ERRORS.has(finishReason)) return 'error';
  return 'other'; // LANGUAGE, OTHER, FINISH_REASON_UNSPECIFIED, and whatever a newer API adds
}
