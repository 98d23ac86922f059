// Cache diagnostics: with `diagnostics.previous_message_id` the API compares this request with the one
// that produced that message and names the first divergence (model, tools, system, messages), with the
// tokens that would have been read from cache. Fingerprints are kept for requests that opted in
// (`diagnostics` present; `previous_message_id: null` on the first turn).
// https://platform.claude.com/docs/en/build-with-claude/cache-diagnostics#cache-miss-reason-types and
// the SDK's Diagnostics / CacheMissReason types; in a stream the field is on message_start.
import { canonicalJson, estimateTokens, sha256 } from '../canonical-json.mjs';
import { blocksOf } from './anthropic-content-rules.mjs';

/**
 * @typedef {object} Fingerprint
 * @property {string} model
 * @property {string} tools
 * @property {string} system
 * @property {string[]} messages
 * @property {number} toolsTokens
 * @property {number} systemTokens
 * @property {number[]} messageTokens
 * @property {string} params  other prompt-affecting parameters
 */

/**
 * @param {any} body
 * @returns {Fingerprint}
 */
export function fingerprint(body) {
  const tools = body.tools ?? [];
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  const messages = (body.messages ?? []).map((/** @type {any} */ m) => ({ role: m?.role, content: blocksOf(m?.content) }));
  return {
    model: String(body.model),
    tools: sha256(canonicalJson(tools)),
    system: sha256(canonicalJson(system)),
    messages: messages.map((/** @type {unknown} */ m) => sha256(canonicalJson(m))),
    toolsTokens: estimateTokens(tools),
    systemTokens: estimateTokens(system),
    messageTokens: messages.map((/** @type {unknown} */ m) => estimateTokens(m)),
    params: canonicalJson({ thinking: body.thinking?.type ?? null, budget: body.thinking?.budget_tokens ?? null, tool_choice: body.tool_choice ?? null, context_management: body.context_management ?? null }),
  };
}

/** @param {number[]} values */
const sum = (values) => values.reduce((a, b) => a + b, 0);

/**
 * The `diagnostics` object of a response: null when the request did not ask, or nothing diverged.
 * @param {Fingerprint | undefined} previous  the fingerprint of `previous_message_id`, if known
 * @param {Fingerprint} current
 * @param {unknown} previousId
 * @returns {{ cache_miss_reason: Record<string, unknown> } | null}
 */
export function diagnose(previous, current, previousId) {
  if (previousId === null || previousId === undefined) return null;
  if (!previous) return { cache_miss_reason: { type: 'previous_message_not_found' } };
  const all = previous.toolsTokens + previous.systemTokens + sum(previous.messageTokens);
  /** @param {string} type @param {number} before tokens before the divergence */
  const miss = (type, before) => ({ cache_miss_reason: { type, cache_missed_input_tokens: Math.max(0, all - before) } });
  if (previous.model !== current.model) return miss('model_changed', 0);
  if (previous.tools !== current.tools) return miss('tools_changed', 0);
  if (previous.system !== current.system) return miss('system_changed', previous.toolsTokens);
  const changed = previous.messages.findIndex((hash, index) => current.messages[index] !== hash);
  if (changed >= 0) return miss('messages_changed', previous.toolsTokens + previous.systemTokens + sum(previous.messageTokens.slice(0, changed)));
  if (previous.params !== current.params) return { cache_miss_reason: { type: 'unavailable' } };
  return null;
}
