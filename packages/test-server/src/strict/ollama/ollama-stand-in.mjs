// The strict Ollama stand-in: POST /api/show, GET /api/tags, POST /api/chat (NDJSON stream by default),
// GET /v1/models and POST /v1/chat/completions (OpenAI-compatible, `reasoning_effort`).
//   https://docs.ollama.com/api/chat, https://docs.ollama.com/api/openai-compatibility
// A model without the `thinking` capability refuses think / reasoning_effort with
// `"<model>" does not support thinking` (400; wording from Ollama's answers, README).
/** @import { RecordedRequest, ScriptedResponse } from '../../wire-types.mjs' */
/** @import { OllamaModel } from './ollama-models.mjs' */
/** @import { StrictReply } from '../strict-types.mjs' */
import { openaiChatChunks, openaiErrorResponse } from '../../openai-responses.mjs';
import { jsonResponse, sseResponse } from '../../responses.mjs';
import { estimateTokens } from '../canonical-json.mjs';
import { sampleForSchema } from '../schema-sample.mjs';
import { OLLAMA_MODELS, findOllamaModel, ollamaShow } from './ollama-models.mjs';

const LEVELS = ['high', 'medium', 'low'];

/**
 * @param {any} body
 * @param {OllamaModel} row
 * @param {boolean} compat  the OpenAI-compatible endpoint
 * @returns {string | undefined}
 */
function problem(body, row, compat) {
  const think = compat ? (body.reasoning_effort === undefined || body.reasoning_effort === 'none' ? undefined : body.reasoning_effort) : body.think;
  if (typeof think === 'string' && !LEVELS.includes(think)) return `invalid think value: "${think}" (must be "high", "medium", "low", true, or false)`;
  if ((think === true || typeof think === 'string') && !row.capabilities.includes('thinking')) return `"${body.model}" does not support thinking`;
  if (Array.isArray(body.tools) && body.tools.length > 0 && !row.capabilities.includes('tools')) return `"${body.model}" does not support tools`;
  return undefined;
}

/**
 * @param {object} options
 * @param {readonly OllamaModel[] | undefined} options.models
 * @param {() => StrictReply | undefined} options.nextReply
 */
export function createOllamaStandIn({ models = OLLAMA_MODELS, nextReply }) {
  return {
    /**
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse | undefined}
     */
    route(request) {
      const body = /** @type {any} */ (request.body);
      if (request.method === 'GET' && request.path === '/api/tags') {
        return jsonResponse(200, { models: models.map((row) => ({ name: row.name, model: row.name, modified_at: '2026-01-01T00:00:00Z', size: 0, digest: '', details: ollamaShow(row).details })) });
      }
      if (request.method === 'GET' && request.path === '/v1/models') {
        return jsonResponse(200, { object: 'list', data: models.map((row) => ({ id: row.name, object: 'model', created: 0, owned_by: 'library' })) });
      }
      if (request.method === 'POST' && request.path === '/api/show') {
        const row = findOllamaModel(models, body?.model ?? body?.name);
        return row ? jsonResponse(200, ollamaShow(row)) : jsonResponse(404, { error: `model '${body?.model ?? body?.name}' not found` });
      }
      const compat = request.path === '/v1/chat/completions';
      if (request.method !== 'POST' || (request.path !== '/api/chat' && !compat)) return jsonResponse(404, { error: '404 page not found' });
      const row = findOllamaModel(models, body?.model);
      const missing = `model "${body?.model}" not found, try pulling it first`;
      if (!row) return compat ? openaiErrorResponse(404, { message: missing, type: 'api_error', code: null }) : jsonResponse(404, { error: missing });
      const found = problem(body, row, compat);
      if (!found) return undefined;
      return compat ? openaiErrorResponse(400, { message: found, type: 'invalid_request_error', code: null }) : jsonResponse(400, { error: found });
    },
    /**
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse}
     */
    answer(request) {
      const body = /** @type {any} */ (request.body);
      const reply = nextReply();
      const compat = request.path === '/v1/chat/completions';
      const thinks = reply?.thinking !== false && (compat ? body.reasoning_effort !== undefined && body.reasoning_effort !== 'none' : body.think === true || typeof body.think === 'string');
      const thinking = reply?.thinkingText ?? 'Considering the request.';
      const schema = compat ? body.response_format?.json_schema?.schema : typeof body.format === 'object' ? body.format : undefined;
      const calls = reply?.toolCalls ?? [];
      const content = calls.length > 0 ? '' : (reply?.text ?? (schema ? JSON.stringify(sampleForSchema(schema)) : 'ok'));
      if (compat) {
        /** @type {import('../../openai-responses.mjs').OpenAIChatScriptedPart[]} */
        const parts = [...(thinks ? [{ type: /** @type {const} */ ('reasoning'), reasoning: thinking }] : []), ...(content ? [{ type: /** @type {const} */ ('text'), text: content }] : []), ...calls.map((c) => ({ type: /** @type {const} */ ('tool_call'), id: c.id, name: c.name, arguments: c.input }))];
        const usage = { prompt_tokens: estimateTokens(body.messages ?? []), completion_tokens: estimateTokens(parts), total_tokens: 0 };
        usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
        return sseResponse(openaiChatChunks(parts, { model: body.model, id: 'chatcmpl-ollama', usage }));
      }
      const message = { role: 'assistant', content, ...(thinks ? { thinking } : {}), ...(calls.length ? { tool_calls: calls.map((c) => ({ function: { name: c.name, arguments: c.input } })) } : {}) };
      const done = { model: body.model, created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: estimateTokens(body.messages ?? []), eval_count: estimateTokens(message) };
      if (body.stream === false) return jsonResponse(200, { ...done, message });
      const line = (/** @type {unknown} */ value) => `${JSON.stringify(value)}\n`;
      return { type: 'stream', status: 200, headers: { 'content-type': 'application/x-ndjson' }, chunks: [line({ model: body.model, created_at: done.created_at, message, done: false }), line(done)] };
    },
  };
}
