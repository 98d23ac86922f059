// The strict OpenRouter stand-in: GET /api/v1/models, POST /api/v1/chat/completions (OpenAI chat shape
// plus `reasoning` and `reasoning_details`, https://openrouter.ai/docs/use-cases/reasoning-tokens).
/** @import { RecordedRequest, ScriptedResponse } from '../../wire-types.mjs' */
/** @import { OpenRouterModel } from './openrouter-models.mjs' */
/** @import { StrictReply } from '../strict-types.mjs' */
/** @import { OpenAIChatScriptedPart } from '../../openai-responses.mjs' */
import { randomUUID } from 'node:crypto';
import { openaiChatChunks } from '../../openai-responses.mjs';
import { jsonResponse, sseResponse } from '../../responses.mjs';
import { estimateTokens, hmac } from '../canonical-json.mjs';
import { sampleForSchema } from '../schema-sample.mjs';
import { OPENROUTER_MODELS, openRouterModelInfo } from './openrouter-models.mjs';
import { openRouterProblem } from './openrouter-request-rules.mjs';

/**
 * @param {object} options
 * @param {readonly OpenRouterModel[] | undefined} options.models
 * @param {string} options.secret
 * @param {() => StrictReply | undefined} options.nextReply
 */
export function createOpenRouterStandIn({ models = OPENROUTER_MODELS, secret, nextReply }) {
  /** @param {unknown} id */
  const find = (id) => models.find((row) => row.id === id);
  return {
    /**
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse | undefined}
     */
    route(request) {
      if (request.method === 'GET' && request.path === '/api/v1/models') return jsonResponse(200, { data: models.map(openRouterModelInfo) });
      if (request.method !== 'POST' || request.path !== '/api/v1/chat/completions') return jsonResponse(404, { error: { message: 'Not Found', code: 404 } });
      const body = /** @type {any} */ (request.body);
      const row = find(body?.model);
      if (!row) return jsonResponse(400, { error: { message: `${body?.model} is not a valid model ID`, code: 400 } });
      const problem = openRouterProblem(body, row);
      return problem ? jsonResponse(problem.status, problem.body) : undefined;
    },
    /**
     * Reasoning text plus reasoning_details in the upstream's format: Claude's signed text, Gemini's and
     * OpenAI's encrypted blocks. Gemini 3 always reasons; Claude only when asked.
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse}
     */
    answer(request) {
      const body = /** @type {any} */ (request.body);
      const row = /** @type {OpenRouterModel} */ (find(body.model));
      const reply = nextReply();
      const asked = body.reasoning !== undefined && body.reasoning?.effort !== 'none' && body.reasoning?.enabled !== false;
      const reasons = reply?.thinking !== false && (row.upstream === 'gemini3' || row.upstream === 'openai' || asked);
      const signature = hmac(secret, randomUUID());
      const text = reply?.thinkingText ?? 'Considering the request.';
      const details = row.upstream.startsWith('claude')
        ? [{ type: 'reasoning.text', text, signature, format: 'anthropic-claude-v1', index: 0 }]
        : [{ type: 'reasoning.encrypted', data: signature, format: row.upstream === 'openai' ? 'openai-responses-v1' : 'google-gemini-v1', index: 0 }];
      /** @type {OpenAIChatScriptedPart[]} */
      const parts = reasons ? [{ type: 'reasoning', reasoning: row.upstream.startsWith('claude') ? text : '', details }] : [];
      const schema = body.response_format?.json_schema?.schema;
      const calls = reply?.toolCalls ?? [];
      if (calls.length === 0) parts.push({ type: 'text', text: reply?.text ?? (schema ? JSON.stringify(sampleForSchema(schema)) : 'ok') });
      for (const call of calls) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.input });
      const usage = { prompt_tokens: estimateTokens(body.messages ?? []), completion_tokens: estimateTokens(parts), total_tokens: 0 };
      usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
      const chunks = openaiChatChunks(parts, { model: row.id, id: `gen-${randomUUID()}`, usage });
      if (body.stream === true) return sseResponse(chunks);
      const message = {
        role: 'assistant',
        content: calls.length === 0 ? /** @type {any} */ (parts.at(-1)).text : null,
        ...(reasons ? { reasoning: row.upstream.startsWith('claude') ? text : null, reasoning_details: details } : {}),
        ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })) } : {}),
      };
      return jsonResponse(200, { id: `gen-${randomUUID()}`, object: 'chat.completion', created: 1_700_000_000, model: row.id, choices: [{ index: 0, message, finish_reason: calls.length ? 'tool_calls' : 'stop' }], usage });
    },
  };
}
