import type { JsonResponse, SseEvent, StreamResponse } from './wire-types.d.mts';

/** A JSON answer with `content-type: application/json` plus `headers` (e.g. `retry-after`). */
export declare function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): JsonResponse;
/** Frames one server-sent event: `event: <name>\ndata: <json>\n\n`. */
export declare function formatSseEvent(event: SseEvent): string;
/** A `text/event-stream` answer, one chunk per event. */
export declare function sseResponse(events: readonly SseEvent[], options?: { chunkDelayMs?: number }): StreamResponse;
/** The same stream stopped after `afterChunks` events: `destroy` (default) resets the socket, `end` closes cleanly. */
export declare function cutStream(response: StreamResponse, afterChunks: number, mode?: 'end' | 'destroy'): StreamResponse;
