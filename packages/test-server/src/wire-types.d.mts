import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** One request the server received, recorded before it was answered. */
export interface RecordedRequest {
  method: string;
  /** The path without the query string (`/v1/messages`). */
  path: string;
  /** The query string's parameters (`?alt=sse` → `{ alt: 'sse' }`). */
  query: Record<string, string>;
  /** Header names lower-cased, as Node gives them. */
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON; `undefined` when empty or not JSON (see `rawBody`). */
  body: unknown;
  rawBody: string;
}

/** A JSON answer: an API error, or any non-streaming response. */
export interface JsonResponse {
  type: 'json';
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** How a stream stops early: `end` closes the response cleanly, `destroy` resets the socket. */
export interface StreamCut {
  afterChunks: number;
  mode: 'end' | 'destroy';
}

/** A streamed answer, written chunk by chunk (for SSE, each chunk is one framed event). */
export interface StreamResponse {
  type: 'stream';
  status?: number;
  headers?: Record<string, string>;
  chunks: string[];
  /** Pause between chunks, so a test can see deltas arrive one by one. */
  chunkDelayMs?: number;
  cut?: StreamCut;
}

/** Escape hatch: the test answers the request itself. */
export interface HandlerResponse {
  type: 'handler';
  handle(request: RecordedRequest, response: ServerResponse): void | Promise<void>;
}

export type ScriptedResponse = JsonResponse | StreamResponse | HandlerResponse;

/** One server-sent event before framing. `data` is JSON-encoded unless it is a string. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

export interface WireServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** Every request received so far, in order (a live array). */
  readonly requests: RecordedRequest[];
  /** Appends answers to the script; requests take them first in, first out. */
  enqueue(...responses: ScriptedResponse[]): void;
  /** Answers not yet taken. */
  readonly remaining: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

export interface WireServerOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Answers a request when the script is empty; by default a loud 500. */
  fallback?: (request: RecordedRequest, index: number) => ScriptedResponse;
  /**
   * Consulted before the script: an answer refuses the request without taking a scripted answer
   * (a server that rejects bodies over a size as too long for the model, say); undefined lets it through.
   */
  refuse?: (request: RecordedRequest, index: number) => ScriptedResponse | undefined;
  /** Called for every request after it is recorded (the standalone server logs bodies with it). */
  onRequest?: (request: RecordedRequest, index: number) => void;
}
