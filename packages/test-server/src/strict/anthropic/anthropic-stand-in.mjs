// The strict Anthropic stand-in: routes, validation order, and the state it keeps between requests
// (issued signatures via the secret, the prompt cache, fingerprints of answered message ids).
/** @import { RecordedRequest, ScriptedResponse } from '../../wire-types.mjs' */
/** @import { AnthropicModel } from './anthropic-models.mjs' */
/** @import { AcceptedRequest } from './anthropic-reply.mjs' */
/** @import { Fingerprint } from './anthropic-diagnostics.mjs' */
/** @import { StrictReply } from '../strict-types.mjs' */
import { randomUUID } from 'node:crypto';
import { anthropicErrorResponse } from '../../anthropic-responses.mjs';
import { jsonResponse } from '../../responses.mjs';
import { estimateTokens } from '../canonical-json.mjs';
import { BETA, requestBetas } from './anthropic-betas.mjs';
import { anthropicConfigProblem } from './anthropic-config-rules.mjs';
import { anthropicContentProblem } from './anthropic-content-rules.mjs';
import { diagnose, fingerprint } from './anthropic-diagnostics.mjs';
import { anthropicModelInfo, anthropicModelList, anthropicModelNotFound } from './anthropic-listing.mjs';
import { anthropicMediaProblem } from './anthropic-media-rules.mjs';
import { ANTHROPIC_MODELS, findAnthropicModel } from './anthropic-models.mjs';
import { checkThinkingBlocks } from './anthropic-prefix-binding.mjs';
import { PromptCache } from './anthropic-prompt-cache.mjs';
import { renderAnthropicReply } from './anthropic-reply.mjs';
import { anthropicSystemMessageProblem } from './anthropic-system-message-rules.mjs';

// https://platform.claude.com/docs/en/api/overview#request-size-limits: 32 MB on the Messages endpoint.
const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/**
 * @param {object} options
 * @param {readonly AnthropicModel[] | undefined} options.models
 * @param {string} options.secret
 * @param {'new' | 'legacy'} options.account
 * @param {() => StrictReply | undefined} options.nextReply
 */
export function createAnthropicStandIn({ models = ANTHROPIC_MODELS, secret, account, nextReply }) {
  const cache = new PromptCache();
  /** @type {Map<string, Fingerprint>} */
  const fingerprints = new Map();
  /** @type {WeakMap<RecordedRequest, AcceptedRequest>} */
  const accepted = new WeakMap();

  /**
   * @param {RecordedRequest} request
   * @returns {ScriptedResponse | undefined}
   */
  function validateMessages(request) {
    if (request.rawBody.length > MAX_REQUEST_BYTES) {
      return anthropicErrorResponse(413, { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' });
    }
    const body = /** @type {any} */ (request.body);
    if (body === null || typeof body !== 'object') return anthropicErrorResponse(400, { message: 'The request body is not valid JSON.' });
    const row = findAnthropicModel(models, body.model);
    if (!row) return anthropicModelNotFound(String(body.model));
    const betas = requestBetas(request);
    const problem =
      anthropicConfigProblem(body, row, betas) ??
      anthropicContentProblem(body, row) ??
      anthropicSystemMessageProblem(body, row, betas) ??
      anthropicMediaProblem(body, row);
    if (problem) return anthropicErrorResponse(problem.status ?? 400, { type: problem.type ?? 'invalid_request_error', message: problem.message });
    const binding = checkThinkingBlocks({ body, row, secret, betas, account });
    if (binding.rejection) return anthropicErrorResponse(400, { message: binding.rejection.message });
    const id = `msg_strict_${randomUUID().replaceAll('-', '')}`;
    const current = fingerprint(body);
    const optedIn = body.diagnostics !== undefined && body.diagnostics !== null;
    const previousId = optedIn ? body.diagnostics.previous_message_id : undefined;
    const diagnostics = optedIn ? diagnose(fingerprints.get(previousId), current, previousId) : null;
    if (optedIn) fingerprints.set(id, current);
    accepted.set(request, {
      body,
      row,
      id,
      usage: cache.account(body, row),
      diagnostics,
      transformations: betas.has(BETA.bindingControls) ? binding.transformations : undefined,
      previousSignature: binding.previousSignature,
    });
    return undefined;
  }

  return {
    /**
     * Listings and refusals; undefined lets an accepted request through to the script.
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse | undefined}
     */
    route(request) {
      if (request.method === 'GET' && request.path === '/v1/models') return anthropicModelList(models, request.query);
      const single = request.method === 'GET' ? /^\/v1\/models\/([^/]+)$/.exec(request.path) : null;
      if (single) {
        const row = findAnthropicModel(models, decodeURIComponent(single[1] ?? ''));
        return row ? jsonResponse(200, anthropicModelInfo(row)) : anthropicModelNotFound(decodeURIComponent(single[1] ?? ''));
      }
      if (request.method === 'POST' && request.path === '/v1/messages') return validateMessages(request);
      if (request.method === 'POST' && request.path === '/v1/messages/count_tokens') {
        const body = /** @type {any} */ (request.body);
        if (!findAnthropicModel(models, body?.model)) return anthropicModelNotFound(String(body?.model));
        return jsonResponse(200, { input_tokens: estimateTokens([body.tools ?? [], body.system ?? [], body.messages ?? []]) });
      }
      return anthropicErrorResponse(404, { type: 'not_found_error', message: 'Not Found' });
    },
    /**
     * The answer to an accepted request.
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse}
     */
    answer(request) {
      const context = accepted.get(request);
      if (!context) return anthropicErrorResponse(500, { message: 'strict-server: no accepted request to answer' });
      return renderAnthropicReply(context, nextReply(), secret);
    },
  };
}
