// Gemini API answers, chunk for chunk as `models/{model}:streamGenerateContent?alt=sse` streams
// them: every SSE event is one `GenerateContentResponse` JSON; there is no end marker, the last
// chunk carries the candidate's `finishReason` and the final `usageMetadata`.
/** @import { JsonResponse, SseEvent, StreamResponse } from './wire-types.mjs' */
/** @import { GoogleFunctionCall, GoogleScriptedPart, GoogleStreamOptions, GoogleWireUsage } from './google-responses.mjs' */
import { splitIntoDeltas } from './anthropic-responses.mjs';
import { jsonResponse, sseResponse } from './responses.mjs';

/** @type {GoogleWireUsage} */
const DEFAULT_USAGE = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

/**
 * @param {string | readonly string[]} text
 * @returns {string[]}
 */
const deltasOf = (text) => (typeof text === 'string' ? splitIntoDeltas(text) : [...text]);

/**
 * @param {GoogleScriptedPart} part
 * @returns {Record<string, unknown>}
 */
function wirePart(part) {
  switch (part.type) {
    case 'text':
      return part.thoughtSignature === undefined ? { text: part.text } : { text: part.text, thoughtSignature: part.thoughtSignature };
    case 'thought':
      return { text: part.text, thought: true };
    case 'functionCall': {
      /** @type {Record<string, unknown>} */
      const call = { name: part.name, args: part.args };
      if (part.id !== undefined) call.id = part.id;
      /** @type {Record<string, unknown>} */
      const wire = { functionCall: call };
      if (part.thoughtSignature !== undefined) wire.thoughtSignature = part.thoughtSignature;
      return wire;
    }
  }
}

/**
 * @param {readonly GoogleScriptedPart[]} parts
 * @param {GoogleStreamOptions} [options]
 * @returns {SseEvent[]}
 */
export function googleStreamChunks(parts, options = {}) {
  const usage = { ...DEFAULT_USAGE, ...options.usage };
  const modelVersion = options.modelVersion ?? 'gemini-wire-server';
  const responseId = options.responseId ?? 'wire-server-response';
  // Intermediate chunks carry the prompt count only; the last one the full counts.
  const running = { promptTokenCount: usage.promptTokenCount, totalTokenCount: usage.promptTokenCount };
  const finishReason = options.finishReason === undefined ? 'STOP' : options.finishReason;
  const chunks = parts.length === 0 ? [undefined] : parts;
  return chunks.map((part, index) => {
    const last = index === chunks.length - 1;
    /** @type {Record<string, unknown>} */
    const candidate = { content: { role: 'model', parts: part === undefined ? [] : [wirePart(part)] }, index: 0 };
    if (last && finishReason !== null) candidate.finishReason = finishReason;
    return { data: { candidates: [candidate], usageMetadata: last ? usage : running, modelVersion, responseId } };
  });
}

/**
 * @param {GoogleStreamOptions} options
 * @returns {{ chunkDelayMs?: number }}
 */
const streamOptions = (options) => (options.chunkDelayMs === undefined ? {} : { chunkDelayMs: options.chunkDelayMs });

/**
 * @param {string | readonly string[]} text
 * @param {GoogleStreamOptions & { thoughts?: string | readonly string[] }} [options]
 * @returns {StreamResponse}
 */
export function googleTextStream(text, options = {}) {
  /** @type {GoogleScriptedPart[]} */
  const parts = [];
  if (options.thoughts !== undefined) for (const thought of deltasOf(options.thoughts)) parts.push({ type: 'thought', text: thought });
  for (const delta of deltasOf(text)) parts.push({ type: 'text', text: delta });
  return sseResponse(googleStreamChunks(parts, options), streamOptions(options));
}

/**
 * @param {GoogleFunctionCall | readonly GoogleFunctionCall[]} calls
 * @param {GoogleStreamOptions & { text?: string }} [options]
 * @returns {StreamResponse}
 */
export function googleFunctionCallStream(calls, options = {}) {
  const list = Array.isArray(calls) ? calls : [calls];
  /** @type {GoogleScriptedPart[]} */
  const parts = options.text === undefined ? [] : deltasOf(options.text).map((text) => ({ type: 'text', text }));
  for (const call of list) parts.push({ type: 'functionCall', ...call });
  return sseResponse(googleStreamChunks(parts, options), streamOptions(options));
}

/** @type {Record<number, string>} */
const STATUSES = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/**
 * @param {number} code
 * @param {{ status?: string; message?: string }} options
 */
function errorBody(code, options) {
  const status = options.status ?? STATUSES[code] ?? 'UNKNOWN';
  return { error: { code, message: options.message ?? `wire-server: scripted ${code} ${status}`, status } };
}

/**
 * @param {number} code
 * @param {{ status?: string; message?: string; headers?: Record<string, string> }} [options]
 * @returns {JsonResponse}
 */
export function googleErrorResponse(code, options = {}) {
  return jsonResponse(code, errorBody(code, options), options.headers);
}

/**
 * @param {number} [code]
 * @param {{ status?: string; message?: string }} [options]
 * @returns {SseEvent}
 */
export function googleErrorChunk(code = 503, options = {}) {
  return { data: errorBody(code, options) };
}
