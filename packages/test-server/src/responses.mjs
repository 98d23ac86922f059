// Generic scripted answers: JSON bodies and server-sent event streams.
/** @import { JsonResponse, SseEvent, StreamResponse } from './wire-types.mjs' */

/**
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 * @returns {JsonResponse}
 */
export function jsonResponse(status, body, headers = {}) {
  return { type: 'json', status, headers, body };
}

/**
 * @param {SseEvent} event
 * @returns {string}
 */
export function formatSseEvent(event) {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  const lines = data.split('\n').map((line) => `data: ${line}`);
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}${lines.join('\n')}\n\n`;
}

/**
 * @param {readonly SseEvent[]} events
 * @param {{ chunkDelayMs?: number }} [options]
 * @returns {StreamResponse}
 */
export function sseResponse(events, options = {}) {
  /** @type {StreamResponse} */
  const response = { type: 'stream', headers: { 'content-type': 'text/event-stream' }, chunks: events.map(formatSseEvent) };
  if (options.chunkDelayMs !== undefined) response.chunkDelayMs = options.chunkDelayMs;
  return response;
}

/**
 * @param {StreamResponse} response
 * @param {number} afterChunks
 * @param {'end' | 'destroy'} [mode]
 * @returns {StreamResponse}
 */
export function cutStream(response, afterChunks, mode = 'destroy') {
  return { ...response, cut: { afterChunks, mode } };
}
