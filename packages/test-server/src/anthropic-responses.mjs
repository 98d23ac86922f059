// Anthropic Messages API answers, event for event as the API streams them.
/** @import { JsonResponse, SseEvent, StreamResponse } from './wire-types.mjs' */
/** @import { AnthropicScriptedBlock, AnthropicStreamOptions } from './anthropic-responses.mjs' */
import { jsonResponse, sseResponse } from './responses.mjs';

/**
 * @param {string} text
 * @returns {string[]}
 */
export function splitIntoDeltas(text) {
  if (text === '') return [];
  const words = text.match(/\s*\S+\s*/g);
  return words ?? [text];
}

/**
 * @param {string | readonly string[]} text
 * @returns {string[]}
 */
const deltasOf = (text) => (typeof text === 'string' ? splitIntoDeltas(text) : [...text]);

/**
 * @param {string} name
 * @param {Record<string, unknown>} data
 * @returns {SseEvent}
 */
const event = (name, data) => ({ event: name, data: { type: name, ...data } });

/**
 * @param {AnthropicScriptedBlock} block
 * @param {number} index
 * @returns {SseEvent[]}
 */
function blockEvents(block, index) {
  /** @param {Record<string, unknown>} delta */
  const delta = (delta) => event('content_block_delta', { index, delta });
  switch (block.type) {
    case 'text':
      return [
        event('content_block_start', { index, content_block: { type: 'text', text: '' } }),
        ...deltasOf(block.text).map((text) => delta({ type: 'text_delta', text })),
        event('content_block_stop', { index }),
      ];
    case 'thinking':
      return [
        event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
        ...deltasOf(block.thinking).map((thinking) => delta({ type: 'thinking_delta', thinking })),
        delta({ type: 'signature_delta', signature: block.signature ?? 'wire-server-signature' }),
        event('content_block_stop', { index }),
      ];
    case 'redacted_thinking':
      return [event('content_block_start', { index, content_block: { type: 'redacted_thinking', data: block.data } }), event('content_block_stop', { index })];
    case 'tool_use': {
      const json = JSON.stringify(block.input);
      const half = Math.floor(json.length / 2);
      return [
        event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }),
        delta({ type: 'input_json_delta', partial_json: json.slice(0, half) }),
        delta({ type: 'input_json_delta', partial_json: json.slice(half) }),
        event('content_block_stop', { index }),
      ];
    }
  }
}

/**
 * @param {readonly AnthropicScriptedBlock[]} blocks
 * @param {AnthropicStreamOptions} [options]
 * @returns {SseEvent[]}
 */
export function anthropicStreamEvents(blocks, options = {}) {
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...options.usage };
  const message = {
    id: options.id ?? 'msg_wire_server',
    type: 'message',
    role: 'assistant',
    model: options.model ?? 'claude-wire-server',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...usage, output_tokens: 1 },
  };
  return [
    event('message_start', { message }),
    event('ping', {}),
    ...blocks.flatMap(blockEvents),
    event('message_delta', { delta: { stop_reason: options.stopReason ?? 'end_turn', stop_sequence: null }, usage }),
    event('message_stop', {}),
  ];
}

/**
 * @param {AnthropicStreamOptions} options
 * @returns {{ chunkDelayMs?: number }}
 */
const streamOptions = (options) => (options.chunkDelayMs === undefined ? {} : { chunkDelayMs: options.chunkDelayMs });

/**
 * @param {string | readonly string[]} text
 * @param {AnthropicStreamOptions} [options]
 * @returns {StreamResponse}
 */
export function anthropicTextStream(text, options = {}) {
  return sseResponse(anthropicStreamEvents([{ type: 'text', text }], options), streamOptions(options));
}

/**
 * @param {{ id: string; name: string; input: Record<string, unknown> } | readonly { id: string; name: string; input: Record<string, unknown> }[]} calls
 * @param {AnthropicStreamOptions & { text?: string }} [options]
 * @returns {StreamResponse}
 */
export function anthropicToolUseStream(calls, options = {}) {
  const list = Array.isArray(calls) ? calls : [calls];
  /** @type {AnthropicScriptedBlock[]} */
  const blocks = options.text === undefined ? [] : [{ type: 'text', text: options.text }];
  for (const call of list) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input });
  const events = anthropicStreamEvents(blocks, { stopReason: 'tool_use', ...options });
  return sseResponse(events, streamOptions(options));
}

/** @type {Record<number, string>} */
const ERROR_TYPES = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/**
 * @param {number} status
 * @param {{ type?: string; message?: string; headers?: Record<string, string> }} [options]
 * @returns {JsonResponse}
 */
export function anthropicErrorResponse(status, options = {}) {
  const type = options.type ?? ERROR_TYPES[status] ?? 'api_error';
  const body = { type: 'error', error: { type, message: options.message ?? `wire-server: scripted ${status} ${type}` } };
  return jsonResponse(status, body, options.headers);
}

/**
 * @param {string} [type]
 * @param {string} [message]
 * @returns {SseEvent}
 */
export function anthropicErrorEvent(type = 'overloaded_error', message = 'Overloaded') {
  return { event: 'error', data: { type: 'error', error: { type, message } } };
}
