// The unscripted server the CLI's end-to-end tests spawn: deterministic answers, bodies logged.
/** @import { RecordedRequest, ScriptedResponse, WireServer } from './wire-types.mjs' */
/** @import { StandaloneServerOptions } from './standalone-server.mjs' */
import { appendFileSync } from 'node:fs';
import { anthropicErrorResponse, anthropicTextStream } from './anthropic-responses.mjs';
import { createWireServer } from './wire-server.mjs';

/** @param {number} n */
export function standaloneReply(n) {
  return `ok ${n}`;
}

/**
 * @param {StandaloneServerOptions} [options]
 * @returns {Promise<WireServer>}
 */
export async function startStandaloneServer(options = {}) {
  let messages = 0;
  const { record, errorStatus } = options;
  /**
   * @param {RecordedRequest} request
   * @returns {ScriptedResponse}
   */
  const fallback = (request) => {
    if (request.method !== 'POST' || request.path !== '/v1/messages') {
      return anthropicErrorResponse(404, { message: `wire-server: no route for ${request.method} ${request.path}` });
    }
    messages += 1;
    if (errorStatus !== undefined) return anthropicErrorResponse(errorStatus);
    return anthropicTextStream(standaloneReply(messages));
  };
  /** @param {RecordedRequest} request */
  const onRequest = (request) => {
    if (record !== undefined) appendFileSync(record, `${JSON.stringify(request.body ?? null)}\n`);
  };
  return createWireServer({ fallback, onRequest, ...(options.port === undefined ? {} : { port: options.port }) });
}
