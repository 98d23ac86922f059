// The strict OpenAI stand-in: GET /v1/models (ids only: OpenAI's listing carries no capabilities),
// POST /v1/responses and POST /v1/chat/completions, validated by openai-request-rules.mjs.
// https://developers.openai.com/api/docs/api-reference/models/list
/** @import { RecordedRequest, ScriptedResponse } from '../../wire-types.mjs' */
/** @import { OpenAIModel } from './openai-models.mjs' */
/** @import { StrictReply } from '../strict-types.mjs' */
import { randomUUID } from 'node:crypto';
import { openaiChatChunks, openaiErrorResponse, openaiResponsesEvents } from '../../openai-responses.mjs';
import { jsonResponse, sseResponse } from '../../responses.mjs';
import { estimateTokens, hmac } from '../canonical-json.mjs';
import { sampleForSchema } from '../schema-sample.mjs';
import { OPENAI_MODELS, findOpenAIModel } from './openai-models.mjs';
import { chatProblem, responsesProblem } from './openai-request-rules.mjs';

/** @param {string} prefix */
const newId = (prefix) => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/**
 * @param {import('./openai-request-rules.mjs').OpenAIRejection} problem
 */
const refuse = (problem) => openaiErrorResponse(problem.status ?? 400, { message: problem.message, type: 'invalid_request_error', param: problem.param, code: problem.code });

/**
 * @param {object} options
 * @param {readonly OpenAIModel[] | undefined} options.models
 * @param {string} options.secret
 * @param {() => StrictReply | undefined} options.nextReply
 */
export function createOpenAIStandIn({ models = OPENAI_MODELS, secret, nextReply }) {
  /** reasoning item id → the id of the item that followed it */
  const followers = new Map();

  /**
   * @param {RecordedRequest} request
   * @param {OpenAIModel} row
   * @returns {ScriptedResponse}
   */
  function answerResponses(request, row) {
    const body = /** @type {any} */ (request.body);
    const reply = nextReply();
    const effort = body.reasoning?.effort ?? row.effortDefault;
    const reasons = row.efforts !== null && effort !== 'none' && reply?.thinking !== false;
    /** @type {import('../../openai-responses.mjs').OpenAIResponsesScriptedItem[]} */
    const items = [];
    const schema = body.text?.format?.type === 'json_schema' ? body.text.format.schema : undefined;
    const text = reply?.text ?? (schema ? JSON.stringify(sampleForSchema(schema)) : 'ok');
    const calls = reply?.toolCalls ?? [];
    const following = calls.length > 0 ? newId('fc') : newId('msg');
    if (reasons) {
      const id = newId('rs');
      followers.set(id, following);
      const encrypted = Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
      items.push({ type: 'reasoning', id, summary: body.reasoning?.summary ? (reply?.thinkingText ?? 'Considering the request.') : '', ...(encrypted ? { encryptedContent: `enc_${hmac(secret, id)}` } : {}) });
    }
    if (calls.length === 0) items.push({ type: 'text', id: following, text });
    calls.forEach((call, index) => items.push({ type: 'function_call', id: index === 0 ? following : newId('fc'), callId: call.id, name: call.name, arguments: call.input }));
    const usage = { input_tokens: estimateTokens(body.input ?? ''), output_tokens: estimateTokens(items), input_tokens_details: { cached_tokens: 0 } };
    const events = openaiResponsesEvents(items, { model: row.id, id: newId('resp'), usage: { ...usage, total_tokens: usage.input_tokens + usage.output_tokens } });
    if (body.stream === true) return sseResponse(events);
    return jsonResponse(200, /** @type {any} */ (events.at(-1)?.data).response);
  }

  /**
   * @param {RecordedRequest} request
   * @param {OpenAIModel} row
   * @returns {ScriptedResponse}
   */
  function answerChat(request, row) {
    const body = /** @type {any} */ (request.body);
    const reply = nextReply();
    const schema = body.response_format?.type === 'json_schema' ? body.response_format.json_schema?.schema : undefined;
    const text = reply?.text ?? (schema ? JSON.stringify(sampleForSchema(schema)) : 'ok');
    /** @type {import('../../openai-responses.mjs').OpenAIChatScriptedPart[]} */
    const parts = reply?.toolCalls?.length ? reply.toolCalls.map((call) => ({ type: 'tool_call', id: call.id, name: call.name, arguments: call.input })) : [{ type: 'text', text }];
    const usage = { prompt_tokens: estimateTokens(body.messages ?? []), completion_tokens: estimateTokens(parts), total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    const chunks = openaiChatChunks(parts, { model: row.id, id: newId('chatcmpl'), usage });
    if (body.stream === true) return sseResponse(chunks);
    const message = { role: 'assistant', content: parts[0]?.type === 'text' ? text : null, ...(reply?.toolCalls?.length ? { tool_calls: reply.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })) } : {}) };
    return jsonResponse(200, { id: newId('chatcmpl'), object: 'chat.completion', created: 1_700_000_000, model: row.id, choices: [{ index: 0, message, finish_reason: reply?.toolCalls?.length ? 'tool_calls' : 'stop' }], usage });
  }

  return {
    /**
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse | undefined}
     */
    route(request) {
      if (request.method === 'GET' && request.path === '/v1/models') {
        return jsonResponse(200, { object: 'list', data: models.map((row) => ({ id: row.id, object: 'model', created: row.created, owned_by: 'openai' })) });
      }
      const single = request.method === 'GET' ? /^\/v1\/models\/([^/]+)$/.exec(request.path) : null;
      if (single) {
        const row = findOpenAIModel(models, decodeURIComponent(single[1] ?? ''));
        if (!row) return openaiErrorResponse(404, { message: `The model '${single[1]}' does not exist`, param: 'model', code: 'model_not_found' });
        return jsonResponse(200, { id: row.id, object: 'model', created: row.created, owned_by: 'openai' });
      }
      const body = /** @type {any} */ (request.body);
      if (request.method === 'POST' && request.path === '/v1/responses') {
        const row = findOpenAIModel(models, body?.model);
        if (!row) return openaiErrorResponse(400, { message: `The requested model '${body?.model}' does not exist.`, param: 'model', code: 'model_not_found' });
        const problem = responsesProblem(body, row, followers);
        return problem ? refuse(problem) : undefined;
      }
      if (request.method === 'POST' && request.path === '/v1/chat/completions') {
        const row = findOpenAIModel(models, body?.model);
        if (!row) return openaiErrorResponse(404, { message: `The model \`${body?.model}\` does not exist or you do not have access to it.`, code: 'model_not_found' });
        const problem = chatProblem(body, row);
        return problem ? refuse(problem) : undefined;
      }
      return openaiErrorResponse(404, { message: `Invalid URL (${request.method} ${request.path})`, code: null });
    },
    /**
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse}
     */
    answer(request) {
      const row = /** @type {OpenAIModel} */ (findOpenAIModel(models, /** @type {any} */ (request.body)?.model));
      return request.path === '/v1/responses' ? answerResponses(request, row) : answerChat(request, row);
    },
  };
}
