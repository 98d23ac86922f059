// createStrictServer: a wire server that answers as one vendor's API does, refusing what that vendor's
// documentation says it refuses (with the vendor's status and wording) and recording every refusal.
// Listings are served from the per-vendor model tables; accepted requests get the script's next
// answer, or a default one. See README.md in this folder for every rule and its source.
/** @import { RecordedRequest, ScriptedResponse } from '../wire-types.mjs' */
/** @import { StrictRejection, StrictReply, StrictServer, StrictServerOptions } from './strict-types.mjs' */
import { randomBytes } from 'node:crypto';
import { createWireServer } from '../wire-server.mjs';
import { createAnthropicStandIn } from './anthropic/anthropic-stand-in.mjs';
import { createGoogleStandIn } from './google/google-stand-in.mjs';
import { createOllamaStandIn } from './ollama/ollama-stand-in.mjs';
import { createOpenAIStandIn } from './openai/openai-stand-in.mjs';
import { createOpenRouterStandIn } from './openrouter/openrouter-stand-in.mjs';

const STAND_INS = {
  anthropic: createAnthropicStandIn,
  openai: createOpenAIStandIn,
  google: createGoogleStandIn,
  openrouter: createOpenRouterStandIn,
  ollama: createOllamaStandIn,
};

/**
 * @param {StrictServerOptions} options
 * @returns {Promise<StrictServer>}
 */
export async function createStrictServer(options) {
  const create = STAND_INS[options.vendor];
  if (!create) throw new Error(`strict-server: unknown vendor ${JSON.stringify(options.vendor)}`);
  /** @type {StrictReply[]} */
  const replies = [...(options.script ?? [])];
  /** @type {StrictRejection[]} */
  const rejections = [];
  const standIn = create({
    models: /** @type {any} */ (options.models),
    secret: options.secret ?? randomBytes(32).toString('base64url'),
    account: options.account ?? 'new',
    nextReply: () => replies.shift(),
  });
  const wire = await createWireServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    refuse: (/** @type {RecordedRequest} */ request, /** @type {number} */ index) => {
      const response = standIn.route(request);
      if (response?.type === 'json' && response.status >= 400) rejections.push({ index, status: response.status, body: response.body });
      return response;
    },
    fallback: (/** @type {RecordedRequest} */ request) => standIn.answer(request),
  });
  return Object.assign(wire, {
    vendor: options.vendor,
    rejections,
    /** @param {StrictReply[]} more */
    enqueueReply: (...more) => {
      replies.push(...more);
    },
  });
}
