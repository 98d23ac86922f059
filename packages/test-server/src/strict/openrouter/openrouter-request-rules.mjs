// Request rules of the strict OpenRouter stand-in (POST /api/v1/chat/completions).
//   reasoning object: https://openrouter.ai/docs/use-cases/reasoning-tokens#controlling-reasoning-tokens —
//     "One of the following (not both)": effort or max_tokens; effort one of xhigh/high/medium/low/minimal/none.
//   reasoning_details back in tool loops: #preserving-reasoning-blocks. The 400s are the upstream's, wrapped as
//     OpenRouter wraps them ("Provider returned error", metadata.raw); wordings from captured 400s (README).
/** @import { OpenRouterModel } from './openrouter-models.mjs' */
import { missingSignature } from '../google/google-request-rules.mjs';

const EFFORTS = ['xhigh', 'high', 'medium', 'low', 'minimal', 'none'];

/** @typedef {{ status: number, body: unknown }} OpenRouterRejection */

/**
 * @param {string} raw
 * @param {string} provider
 * @returns {OpenRouterRejection}
 */
const upstream = (raw, provider) => ({ status: 400, body: { error: { message: 'Provider returned error', code: 400, metadata: { raw, provider_name: provider } } } });

/** @param {string} message @returns {OpenRouterRejection} */
const own = (message) => ({ status: 400, body: { error: { message, code: 400 } } });

/** @param {any} reasoning */
const reasoningOn = (reasoning) =>
  reasoning !== undefined && reasoning !== null && reasoning.enabled !== false && reasoning.effort !== 'none' && (reasoning.enabled === true || reasoning.effort !== undefined || reasoning.max_tokens !== undefined);

/**
 * Gemini 3: each assistant tool call of the current turn needs its reasoning_details (the thought signature).
 * @param {any[]} messages
 * @returns {OpenRouterRejection | undefined}
 */
function geminiProblem(messages) {
  const contents = messages
    .filter((m) => m?.role !== 'system')
    .map((m) => {
      if (m.role === 'assistant') {
        const signed = Array.isArray(m.reasoning_details) && m.reasoning_details.some((/** @type {any} */ d) => d?.type === 'reasoning.encrypted');
        const calls = (m.tool_calls ?? []).map((/** @type {any} */ c, /** @type {number} */ i) => ({ functionCall: { name: c.function?.name }, ...(signed && i === 0 ? { thoughtSignature: 'present' } : {}) }));
        return { role: 'model', parts: [{ text: m.content ?? '' }, ...calls] };
      }
      return { role: 'user', parts: [m.role === 'tool' ? { functionResponse: {} } : { text: '' }] };
    });
  const message = missingSignature(contents);
  if (!message) return undefined;
  const error = `${JSON.stringify({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } }, null, 2)}\n`;
  return upstream(`Gemini models require OpenRouter reasoning details to be preserved in each request. Please refer to our docs: https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks. Upstream error: ${error}`, 'Google AI Studio');
}

/**
 * Claude under manual extended thinking: the final assistant turn of a tool loop must start with its thinking.
 * @param {any[]} messages
 * @returns {OpenRouterRejection | undefined}
 */
function claudeProblem(messages) {
  if (messages.at(-1)?.role !== 'tool') return undefined;
  // Anthropic's indices: system out, consecutive tool results merged into one user message.
  /** @type {any[]} */
  const converted = [];
  for (const m of messages.filter((m) => m?.role !== 'system')) {
    if (m.role === 'tool' && converted.at(-1)?.role === 'tool') continue;
    converted.push(m);
  }
  const index = converted.length - 2;
  const assistant = converted[index];
  if (assistant?.role !== 'assistant' || (Array.isArray(assistant.reasoning_details) && assistant.reasoning_details.length > 0)) return undefined;
  const found = typeof assistant.content === 'string' && assistant.content !== '' ? 'text' : 'tool_use';
  const message = `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${found}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
  return upstream(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message } }), 'Anthropic');
}

/**
 * @param {any} body
 * @param {OpenRouterModel} row
 * @returns {OpenRouterRejection | undefined}
 */
export function openRouterProblem(body, row) {
  const reasoning = body.reasoning;
  if (reasoning !== undefined && reasoning !== null) {
    if (reasoning.effort !== undefined && !EFFORTS.includes(reasoning.effort)) {
      return own(`reasoning.effort: Invalid option: expected one of ${EFFORTS.map((e) => `"${e}"`).join('|')}`);
    }
    if (reasoning.effort !== undefined && reasoning.max_tokens !== undefined) return own('reasoning: only one of "effort" or "max_tokens" may be given');
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  if (row.upstream === 'gemini3') return geminiProblem(messages);
  if (row.upstream === 'claude-extended' && reasoningOn(reasoning)) return claudeProblem(messages);
  return undefined;
}
