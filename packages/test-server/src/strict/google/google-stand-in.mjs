// The strict Gemini stand-in: GET /v1beta/models (paged with pageSize/pageToken), GET /v1beta/models/{name},
// POST /v1beta/models/{model}:generateContent and :streamGenerateContent (alt=sse).
/** @import { RecordedRequest, ScriptedResponse } from '../../wire-types.mjs' */
/** @import { GoogleModel } from './google-models.mjs' */
/** @import { StrictReply } from '../strict-types.mjs' */
/** @import { GoogleScriptedPart } from '../../google-responses.mjs' */
import { randomUUID } from 'node:crypto';
import { googleErrorResponse, googleStreamChunks } from '../../google-responses.mjs';
import { jsonResponse, sseResponse } from '../../responses.mjs';
import { estimateTokens, hmac } from '../canonical-json.mjs';
import { sampleForSchema } from '../schema-sample.mjs';
import { GOOGLE_MODELS, findGoogleModel, googleModelInfo } from './google-models.mjs';
import { googleRequestProblem } from './google-request-rules.mjs';

/** @param {string} name */
const notFound = (name) =>
  googleErrorResponse(404, { message: `models/${name} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.` });

/**
 * @param {object} options
 * @param {readonly GoogleModel[] | undefined} options.models
 * @param {string} options.secret
 * @param {() => StrictReply | undefined} options.nextReply
 */
export function createGoogleStandIn({ models = GOOGLE_MODELS, secret, nextReply }) {
  return {
    /**
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse | undefined}
     */
    route(request) {
      if (request.method === 'GET' && request.path === '/v1beta/models') {
        const size = Math.min(Number(request.query.pageSize ?? 50), 1000);
        const start = Number(request.query.pageToken ?? 0);
        const page = models.slice(start, start + size);
        const next = start + size < models.length ? { nextPageToken: String(start + size) } : {};
        return jsonResponse(200, { models: page.map(googleModelInfo), ...next });
      }
      const single = request.method === 'GET' ? /^\/v1beta\/models\/([^/:]+)$/.exec(request.path) : null;
      if (single) {
        const row = findGoogleModel(models, single[1]);
        return row ? jsonResponse(200, googleModelInfo(row)) : notFound(single[1] ?? '');
      }
      const call = request.method === 'POST' ? /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(request.path) : null;
      if (!call) return googleErrorResponse(404, { message: `Method not found: ${request.method} ${request.path}` });
      const row = findGoogleModel(models, call[1]);
      if (!row) return notFound(call[1] ?? '');
      const problem = googleRequestProblem(request.body, row);
      return problem ? googleErrorResponse(400, { message: problem }) : undefined;
    },
    /**
     * Thinking models think (a thought part when includeThoughts); Gemini 3 signs the first function call,
     * or the last part of an answer without calls (thought-signatures page).
     * @param {RecordedRequest} request
     * @returns {ScriptedResponse}
     */
    answer(request) {
      const body = /** @type {any} */ (request.body);
      const row = /** @type {GoogleModel} */ (findGoogleModel(models, /^\/v1beta\/models\/([^/:]+)/.exec(request.path)?.[1]));
      const reply = nextReply();
      const config = body.generationConfig ?? {};
      const thinks = reply?.thinking !== false && config.thinkingConfig?.thinkingBudget !== 0;
      const signature = hmac(secret, randomUUID());
      /** @type {GoogleScriptedPart[]} */
      const parts = [];
      if (thinks && config.thinkingConfig?.includeThoughts) parts.push({ type: 'thought', text: reply?.thinkingText ?? 'Considering the request.' });
      const schema = config.responseJsonSchema ?? config.responseSchema;
      const calls = reply?.toolCalls ?? [];
      calls.forEach((c, index) => parts.push({ type: 'functionCall', name: c.name, args: c.input, ...(index === 0 && thinks ? { thoughtSignature: signature } : {}) }));
      if (calls.length === 0) {
        const text = reply?.text ?? (schema ? JSON.stringify(sampleForSchema(schema)) : 'ok');
        parts.push({ type: 'text', text, ...(thinks && row.levels !== null ? { thoughtSignature: signature } : {}) });
      }
      const usage = { promptTokenCount: estimateTokens(body.contents), candidatesTokenCount: estimateTokens(parts), totalTokenCount: 0 };
      usage.totalTokenCount = usage.promptTokenCount + usage.candidatesTokenCount;
      const chunks = googleStreamChunks(parts, { usage, modelVersion: row.id, responseId: randomUUID() });
      if (request.path.endsWith(':streamGenerateContent')) return sseResponse(chunks);
      const merged = chunks.flatMap((chunk) => /** @type {any} */ (chunk.data).candidates[0].content.parts);
      const last = /** @type {any} */ (chunks.at(-1)?.data);
      return jsonResponse(200, { ...last, candidates: [{ ...last.candidates[0], content: { role: 'model', parts: merged } }] });
    },
  };
}
