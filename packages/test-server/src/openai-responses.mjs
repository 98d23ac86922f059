// OpenAI wire answers: the Responses API stream (`/v1/responses`) and the chat-completions chunk
// stream (`/v1/chat/completions`, also spoken by OpenRouter and Ollama), event for event.
/** @import { JsonResponse, SseEvent, StreamResponse } from './wire-types.mjs' */
/** @import { OpenAIChatScriptedPart, OpenAIChatStreamOptions, OpenAIResponsesScriptedItem, OpenAIResponsesStreamOptions, OpenAIToolCall } from './openai-responses.mjs' */
import { splitIntoDeltas } from './anthropic-responses.mjs';
import { jsonResponse, sseResponse } from './responses.mjs';

/**
 * @param {string | readonly string[]} text
 * @returns {string[]}
 */
const deltasOf = (text) => (typeof text === 'string' ? splitIntoDeltas(text) : [...text]);

/**
 * @param {{ chunkDelayMs?: number }} options
 * @returns {{ chunkDelayMs?: number }}
 */
const streamOptions = (options) => (options.chunkDelayMs === undefined ? {} : { chunkDelayMs: options.chunkDelayMs });

/**
 * @param {string} json
 * @returns {string[]}
 */
function halves(json) {
  const half = Math.floor(json.length / 2);
  return [json.slice(0, half), json.slice(half)];
}

// ---------------------------------------------------------------------------------------------
// Responses API

/**
 * The events of one output item, from `response.output_item.added` to `response.output_item.done`.
 * @param {OpenAIResponsesScriptedItem} item
 * @param {number} outputIndex
 * @param {(type: string, data: Record<string, unknown>) => SseEvent} event
 * @returns {{ events: SseEvent[]; done: Record<string, unknown> }}
 */
function itemEvents(item, outputIndex, event) {
  const at = { output_index: outputIndex };
  switch (item.type) {
    case 'text': {
      const id = item.id ?? `msg_${outputIndex}`;
      const deltas = deltasOf(item.text);
      const text = deltas.join('');
      const part = { type: 'output_text', text, annotations: [], logprobs: [] };
      const done = { id, type: 'message', status: 'completed', role: 'assistant', content: [part] };
      const where = { item_id: id, ...at, content_index: 0 };
      return {
        done,
        events: [
          event('response.output_item.added', { ...at, item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
          event('response.content_part.added', { ...where, part: { ...part, text: '' } }),
          ...deltas.map((delta) => event('response.output_text.delta', { ...where, delta, logprobs: [] })),
          event('response.output_text.done', { ...where, text, logprobs: [] }),
          event('response.content_part.done', { ...where, part }),
          event('response.output_item.done', { ...at, item: done }),
        ],
      };
    }
    case 'reasoning': {
      const id = item.id ?? `rs_${outputIndex}`;
      const deltas = deltasOf(item.summary);
      const text = deltas.join('');
      const where = { item_id: id, ...at, summary_index: 0 };
      /** @type {Record<string, unknown>} */
      const done = { id, type: 'reasoning', summary: text === '' ? [] : [{ type: 'summary_text', text }] };
      // With `include: ["reasoning.encrypted_content"]` the item carries the reasoning, encrypted.
      if (item.encryptedContent !== undefined) done.encrypted_content = item.encryptedContent;
      if (text === '') {
        return { done, events: [event('response.output_item.added', { ...at, item: { id, type: 'reasoning', summary: [] } }), event('response.output_item.done', { ...at, item: done })] };
      }
      return {
        done,
        events: [
          event('response.output_item.added', { ...at, item: { id, type: 'reasoning', summary: [] } }),
          event('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } }),
          ...deltas.map((delta) => event('response.reasoning_summary_text.delta', { ...where, delta })),
          event('response.reasoning_summary_text.done', { ...where, text }),
          event('response.reasoning_summary_part.done', { ...where, part: { type: 'summary_text', text } }),
          event('response.output_item.done', { ...at, item: done }),
        ],
      };
    }
    case 'function_call': {
      const id = item.id ?? `fc_${outputIndex}`;
      const json = JSON.stringify(item.arguments);
      const call = { id, type: 'function_call', call_id: item.callId, name: item.name };
      const done = { ...call, arguments: json, status: 'completed' };
      return {
        done,
        events: [
          event('response.output_item.added', { ...at, item: { ...call, arguments: '', status: 'in_progress' } }),
          ...halves(json).map((delta) => event('response.function_call_arguments.delta', { item_id: id, ...at, delta })),
          event('response.function_call_arguments.done', { item_id: id, ...at, name: item.name, arguments: json }),
          event('response.output_item.done', { ...at, item: done }),
        ],
      };
    }
  }
}

/**
 * @param {readonly OpenAIResponsesScriptedItem[]} items
 * @param {OpenAIResponsesStreamOptions} [options]
 * @returns {SseEvent[]}
 */
export function openaiResponsesEvents(items, options = {}) {
  let sequence = 0;
  /**
   * @param {string} type
   * @param {Record<string, unknown>} data
   * @returns {SseEvent}
   */
  const event = (type, data) => ({ event: type, data: { type, sequence_number: sequence++, ...data } });
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
    ...options.usage,
  };
  const status = options.status ?? 'completed';
  const base = {
    id: options.id ?? 'resp_wire_server',
    object: 'response',
    created_at: 1_700_000_000,
    model: options.model ?? 'gpt-wire-server',
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
  };
  const events = [event('response.created', { response: { ...base, status: 'in_progress', output: [], usage: null } })];
  events.push(event('response.in_progress', { response: { ...base, status: 'in_progress', output: [], usage: null } }));
  const output = [];
  for (const [index, item] of items.entries()) {
    const { events: itemStream, done } = itemEvents(item, index, event);
    events.push(...itemStream);
    output.push(done);
  }
  const incomplete = status === 'incomplete' ? { reason: options.incompleteReason ?? 'max_output_tokens' } : null;
  const final = { ...base, status, incomplete_details: incomplete, output, usage };
  events.push(event(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final }));
  return events;
}

/**
 * @param {string | readonly string[]} text
 * @param {OpenAIResponsesStreamOptions} [options]
 * @returns {StreamResponse}
 */
export function openaiResponsesTextStream(text, options = {}) {
  return sseResponse(openaiResponsesEvents([{ type: 'text', text }], options), streamOptions(options));
}

/**
 * @param {OpenAIToolCall | readonly OpenAIToolCall[]} calls
 * @param {OpenAIResponsesStreamOptions & { text?: string }} [options]
 * @returns {StreamResponse}
 */
export function openaiResponsesToolCallStream(calls, options = {}) {
  const list = Array.isArray(calls) ? calls : [calls];
  /** @type {OpenAIResponsesScriptedItem[]} */
  const items = options.text === undefined ? [] : [{ type: 'text', text: options.text }];
  for (const call of list) items.push({ type: 'function_call', callId: call.id, name: call.name, arguments: call.arguments });
  return sseResponse(openaiResponsesEvents(items, options), streamOptions(options));
}

/**
 * @param {string} [message]
 * @param {string} [code]
 * @returns {SseEvent}
 */
export function openaiResponsesErrorEvent(message = 'The server had an error while processing your request.', code = 'server_error') {
  return { event: 'error', data: { type: 'error', code, message, param: null, sequence_number: 999 } };
}

/**
 * @param {string} [message]
 * @param {string} [code]
 * @returns {SseEvent}
 */
export function openaiResponsesFailedEvent(message = 'The model failed to generate a response.', code = 'server_error') {
  const response = { id: 'resp_wire_server', object: 'response', status: 'failed', error: { code, message }, output: [], usage: null };
  return { event: 'response.failed', data: { type: 'response.failed', sequence_number: 999, response } };
}

// ---------------------------------------------------------------------------------------------
// Chat completions

/**
 * @param {readonly OpenAIChatScriptedPart[]} parts
 * @param {OpenAIChatStreamOptions} [options]
 * @returns {SseEvent[]}
 */
export function openaiChatChunks(parts, options = {}) {
  const head = { id: options.id ?? 'chatcmpl-wire-server', object: 'chat.completion.chunk', created: 1_700_000_000, model: options.model ?? 'wire-server-model' };
  /**
   * @param {Record<string, unknown>} delta
   * @param {string | null} [finishReason]
   * @returns {SseEvent}
   */
  const chunk = (delta, finishReason = null) => ({ data: { ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] } });
  const events = [chunk({ role: 'assistant', content: '' })];
  let toolIndex = 0;
  for (const part of parts) {
    switch (part.type) {
      case 'text':
        for (const content of deltasOf(part.text)) events.push(chunk({ content }));
        break;
      case 'reasoning':
        for (const reasoning of deltasOf(part.reasoning)) events.push(chunk({ reasoning }));
        // OpenRouter's structured reasoning (signatures, encrypted blocks) arrives as `delta.reasoning_details`.
        if (part.details !== undefined) events.push(chunk({ reasoning_details: part.details }));
        break;
      case 'tool_call': {
        const index = toolIndex++;
        const [first, second] = halves(JSON.stringify(part.arguments));
        events.push(chunk({ tool_calls: [{ index, id: part.id, type: 'function', function: { name: part.name, arguments: first } }] }));
        events.push(chunk({ tool_calls: [{ index, function: { arguments: second } }] }));
        break;
      }
    }
  }
  const finishReason = options.finishReason ?? (toolIndex > 0 ? 'tool_calls' : 'stop');
  events.push(chunk({}, finishReason));
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, ...options.usage };
  if (options.usage !== null) events.push({ data: { ...head, choices: [], usage } });
  if (options.done !== false) events.push({ data: '[DONE]' });
  return events;
}

/**
 * @param {string | readonly string[]} text
 * @param {OpenAIChatStreamOptions} [options]
 * @returns {StreamResponse}
 */
export function openaiChatTextStream(text, options = {}) {
  return sseResponse(openaiChatChunks([{ type: 'text', text }], options), streamOptions(options));
}

/**
 * @param {OpenAIToolCall | readonly OpenAIToolCall[]} calls
 * @param {OpenAIChatStreamOptions & { text?: string }} [options]
 * @returns {StreamResponse}
 */
export function openaiChatToolCallStream(calls, options = {}) {
  const list = Array.isArray(calls) ? calls : [calls];
  /** @type {OpenAIChatScriptedPart[]} */
  const parts = options.text === undefined ? [] : [{ type: 'text', text: options.text }];
  for (const call of list) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
  return sseResponse(openaiChatChunks(parts, options), streamOptions(options));
}

/**
 * A chunk carrying an `error` object, as OpenRouter sends when the upstream fails mid-answer.
 * @param {string} [message]
 * @param {number | string} [code]
 * @returns {SseEvent}
 */
export function openaiChatErrorChunk(message = 'Upstream error', code = 502) {
  return { data: { error: { code, message } } };
}

// ---------------------------------------------------------------------------------------------
// Errors

/** @type {Record<number, [type: string, code: string | null]>} */
const ERROR_KINDS = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', null],
};

/**
 * @param {number} status
 * @param {{ message?: string; type?: string; param?: string | null; code?: string | null; headers?: Record<string, string> }} [options]
 * @returns {JsonResponse}
 */
export function openaiErrorResponse(status, options = {}) {
  const [type, code] = ERROR_KINDS[status] ?? ['api_error', null];
  const error = {
    message: options.message ?? `wire-server: scripted ${status}`,
    type: options.type ?? type,
    param: options.param ?? null,
    code: options.code === undefined ? code : options.code,
  };
  return jsonResponse(status, { error }, options.headers);
}
