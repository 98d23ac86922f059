import type { WireServer } from './wire-types.d.mts';

export interface StandaloneServerOptions {
  /** Appends every request body as one JSON line to this file (written before the answer). */
  record?: string;
  /** Answers every `/v1/messages` request with this HTTP status and an Anthropic error body. */
  errorStatus?: number;
  port?: number;
}

/** The text of the n-th (1-based) `/v1/messages` answer: `ok <n>`. */
export declare function standaloneReply(n: number): string;
/**
 * The server behind `bin/wire-server.mjs`: every `POST /v1/messages` gets an Anthropic text
 * stream `ok <n>`; any other path a 404.
 */
export declare function startStandaloneServer(options?: StandaloneServerOptions): Promise<WireServer>;
