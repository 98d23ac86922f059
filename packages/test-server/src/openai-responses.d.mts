import type { JsonResponse, SseEvent, StreamResponse } from './wire-types.d.mts';

/** A function call the scripted model makes; `id` is the call id the answer must quote. */
export interface OpenAIToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** Token counts as the Responses API spells them (missing fields take small defaults). */
export interface OpenAIResponsesWireUsage {
  input_tokens?: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  output_tokens?: number;
  output_tokens_details?: { reasoning_tokens?: number };
  total_tokens?: number;
}

/** One output item of a scripted Responses answer. Text is split into deltas unless given as an array. */
export type OpenAIResponsesScriptedItem =
  | { type: 'text'; text: string | readonly string[]; id?: string }
  /** A reasoning item; `summary` '' streams none; `encryptedContent` is the item's `encrypted_content`. */
  | { type: 'reasoning'; summary: string | readonly string[]; encryptedContent?: string; id?: string }
  | { type: 'function_call'; callId: string; name: string; arguments: Record<string, unknown>; id?: string };

export interface OpenAIResponsesStreamOptions {
  usage?: OpenAIResponsesWireUsage;
  /** `completed` (default) ends with `response.completed`; `incomplete` with `response.incomplete`. */
  status?: 'completed' | 'incomplete';
  /** With `status: 'incomplete'`: default `max_output_tokens`. */
  incompleteReason?: string;
  model?: string;
  id?: string;
  chunkDelayMs?: number;
}

/** Token counts as chat completions spell them; OpenRouter adds `cache_write_tokens`. */
export interface OpenAIChatWireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
}

/** One part of a scripted chat answer; `reasoning` is streamed as OpenRouter/Ollama's `delta.reasoning`. */
export type OpenAIChatScriptedPart =
  | { type: 'text'; text: string | readonly string[] }
  /** `details` is streamed once, after the text, as OpenRouter's `delta.reasoning_details`. */
  | { type: 'reasoning'; reasoning: string | readonly string[]; details?: readonly unknown[] }
  | { type: 'tool_call'; id: string; name: string; arguments: Record<string, unknown> };

export interface OpenAIChatStreamOptions {
  /** `null` leaves the usage chunk out (a server that ignores `stream_options`). */
  usage?: OpenAIChatWireUsage | null;
  /** Default `stop`, or `tool_calls` when the answer calls tools. */
  finishReason?: string;
  /** `false` leaves out the closing `data: [DONE]` (it is optional on the wire). */
  done?: boolean;
  model?: string;
  id?: string;
  chunkDelayMs?: number;
}

/**
 * The full Responses streaming sequence: `response.created`, `response.in_progress`, per item
 * `output_item.added` … `output_item.done` (text: content part, text deltas; reasoning: summary
 * deltas; function call: argument deltas), then `response.completed` (or `response.incomplete`) with usage.
 */
export declare function openaiResponsesEvents(items: readonly OpenAIResponsesScriptedItem[], options?: OpenAIResponsesStreamOptions): SseEvent[];
/** A streamed Responses text answer. */
export declare function openaiResponsesTextStream(text: string | readonly string[], options?: OpenAIResponsesStreamOptions): StreamResponse;
/** A streamed Responses answer that calls functions (optionally after some text); arguments arrive in two deltas. */
export declare function openaiResponsesToolCallStream(
  calls: OpenAIToolCall | readonly OpenAIToolCall[],
  options?: OpenAIResponsesStreamOptions & { text?: string },
): StreamResponse;
/** An `error` event inside a Responses stream. */
export declare function openaiResponsesErrorEvent(message?: string, code?: string): SseEvent;
/** A `response.failed` event carrying `response.error`. */
export declare function openaiResponsesFailedEvent(message?: string, code?: string): SseEvent;

/**
 * A chat-completions chunk stream: a role chunk, content/reasoning/tool-call deltas, a chunk with
 * `finish_reason`, a usage chunk with empty `choices` (unless `usage: null`), then `data: [DONE]`.
 */
export declare function openaiChatChunks(parts: readonly OpenAIChatScriptedPart[], options?: OpenAIChatStreamOptions): SseEvent[];
/** A streamed chat-completions text answer. */
export declare function openaiChatTextStream(text: string | readonly string[], options?: OpenAIChatStreamOptions): StreamResponse;
/** A streamed chat-completions answer that calls tools (optionally after text); arguments arrive in two deltas. */
export declare function openaiChatToolCallStream(
  calls: OpenAIToolCall | readonly OpenAIToolCall[],
  options?: OpenAIChatStreamOptions & { text?: string },
): StreamResponse;
/** A chunk with an `error` object instead of choices (OpenRouter's mid-stream failure). */
export declare function openaiChatErrorChunk(message?: string, code?: number | string): SseEvent;

/** An API error as OpenAI sends it: `{error: {message, type, param, code}}`. */
export declare function openaiErrorResponse(
  status: number,
  options?: { message?: string; type?: string; param?: string | null; code?: string | null; headers?: Record<string, string> },
): JsonResponse;
