import type { JsonResponse, SseEvent, StreamResponse } from './wire-types.d.mts';

/** Token counts as Gemini's `usageMetadata` spells them. */
export interface GoogleWireUsage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
}

/** A function call as Gemini sends it; `id` is optional on the Gemini API. */
export interface GoogleFunctionCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
  thoughtSignature?: string;
}

/** One part of a scripted answer; each becomes its own chunk. */
export type GoogleScriptedPart =
  /** Gemini puts a `thoughtSignature` on a text part too (the last one of a signed answer). */
  | { type: 'text'; text: string; thoughtSignature?: string }
  | { type: 'thought'; text: string }
  | ({ type: 'functionCall' } & GoogleFunctionCall);

export interface GoogleStreamOptions {
  /** Counts of the last chunk (defaults: prompt 10, candidates 5, total 15); earlier chunks repeat the prompt count only. */
  usage?: GoogleWireUsage;
  /** The last chunk's `finishReason`; default `STOP`; `null` leaves it out (a stream that never finishes). */
  finishReason?: string | null;
  modelVersion?: string;
  responseId?: string;
  chunkDelayMs?: number;
}

/** The chunks of a streamed answer, one `GenerateContentResponse` per part; the last carries finishReason and usage. */
export declare function googleStreamChunks(parts: readonly GoogleScriptedPart[], options?: GoogleStreamOptions): SseEvent[];
/** A streamed text answer (split into word deltas unless given as an array), optionally after thought-summary parts. */
export declare function googleTextStream(
  text: string | readonly string[],
  options?: GoogleStreamOptions & { thoughts?: string | readonly string[] },
): StreamResponse;
/** A streamed answer that calls functions (each call whole, in its own chunk), optionally after some text. */
export declare function googleFunctionCallStream(
  calls: GoogleFunctionCall | readonly GoogleFunctionCall[],
  options?: GoogleStreamOptions & { text?: string },
): StreamResponse;
/** An API error as Gemini sends it: `{error: {code, message, status}}` with the gRPC status name of the code. */
export declare function googleErrorResponse(
  code: number,
  options?: { status?: string; message?: string; headers?: Record<string, string> },
): JsonResponse;
/** An error object sent as a chunk inside the stream (default 503 UNAVAILABLE). */
export declare function googleErrorChunk(code?: number, options?: { status?: string; message?: string }): SseEvent;
