import type { JsonResponse, SseEvent, StreamResponse } from './wire-types.d.mts';

/** Token counts as the Messages API spells them. */
export interface AnthropicWireUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

/** One content block of a scripted answer. `text` is split into deltas unless given as an array. */
export type AnthropicScriptedBlock =
  | { type: 'text'; text: string | readonly string[] }
  | { type: 'thinking'; thinking: string | readonly string[]; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface AnthropicStreamOptions {
  usage?: AnthropicWireUsage;
  /** Default `end_turn` (`tool_use` for `anthropicToolUseStream`). */
  stopReason?: string;
  model?: string;
  id?: string;
  chunkDelayMs?: number;
}

/** Splits text into word-sized deltas (`"a b c"` → `["a ", "b ", "c"]`); joining them gives the text back. */
export declare function splitIntoDeltas(text: string): string[];
/** The full Messages streaming sequence: message_start, ping, per block start/delta…/stop, message_delta, message_stop. */
export declare function anthropicStreamEvents(blocks: readonly AnthropicScriptedBlock[], options?: AnthropicStreamOptions): SseEvent[];
/** A streamed text answer. */
export declare function anthropicTextStream(text: string | readonly string[], options?: AnthropicStreamOptions): StreamResponse;
/** A streamed answer that calls tools (optionally after some text); input JSON arrives in two fragments. */
export declare function anthropicToolUseStream(
  calls: { id: string; name: string; input: Record<string, unknown> } | readonly { id: string; name: string; input: Record<string, unknown> }[],
  options?: AnthropicStreamOptions & { text?: string },
): StreamResponse;
/** An API error as Anthropic sends it: `{type: "error", error: {type, message}}`. */
export declare function anthropicErrorResponse(
  status: number,
  options?: { type?: string; message?: string; headers?: Record<string, string> },
): JsonResponse;
/** An `event: error` sent inside a stream (e.g. `overloaded_error` mid-answer). */
export declare function anthropicErrorEvent(type?: string, message?: string): SseEvent;
