// Request rules of the strict OpenAI stand-in, for the Responses API (`/v1/responses`) and Chat
// Completions (`/v1/chat/completions`). Errors are OpenAI's shape: {error: {message, type, param, code}}.
/** @import { OpenAIModel } from './openai-models.mjs' */
import { quotedList } from './openai-models.mjs';
import { strictSchemaProblem } from './openai-strict-schema.mjs';

/** @typedef {{ status?: number, message: string, param: string | null, code: string | null }} OpenAIRejection */

/**
 * reasoning effort on a model: per-model values (openai-models.mjs), and no reasoning at all on models
 * without it. Wording from OpenAI's 400s (openai/openai-agents-python#2089 and others, README).
 * @param {OpenAIModel} row
 * @param {unknown} effort
 * @param {string} param  `reasoning.effort` (Responses) or `reasoning_effort` (Chat Completions)
 * @returns {OpenAIRejection | undefined}
 */
export function effortProblem(row, effort, param) {
  if (effort === undefined) return undefined;
  if (row.efforts === null) return { message: `Unsupported parameter: '${param}' is not supported with this model.`, param, code: 'unsupported_parameter' };
  if (typeof effort !== 'string' || !row.efforts.includes(effort)) {
    return { message: `Unsupported value: '${effort}' is not supported with the '${row.id}' model. Supported values are: ${quotedList(row.efforts)}.`, param, code: 'unsupported_value' };
  }
  return undefined;
}

/**
 * @param {OpenAIModel} row
 * @param {unknown} value
 * @param {string} param
 * @returns {OpenAIRejection | undefined}
 */
export function outputLimitProblem(row, value, param) {
  if (value === undefined || value === null) return undefined;
  // https://developers.openai.com/api/docs/api-reference/responses/create#responses-create-max_output_tokens (min 16 on Responses).
  if (param === 'max_output_tokens' && typeof value === 'number' && value < 16) {
    return { message: `Invalid '${param}': integer below minimum value. Expected a value >= 16, but got ${value} instead.`, param, code: 'integer_below_min_value' };
  }
  if (typeof value === 'number' && value > row.maxOutput) {
    return { message: `${param} is too large: ${value}. This model supports at most ${row.maxOutput} completion tokens, whereas you provided ${value}.`, param, code: 'invalid_value' };
  }
  return undefined;
}

/**
 * json_schema with strict: true must meet strict mode.
 * @param {any} format  `text.format` (Responses) or `response_format.json_schema` (Chat)
 * @param {string} param
 * @returns {OpenAIRejection | undefined}
 */
export function schemaProblem(format, param) {
  if (format?.strict !== true || format.schema === undefined) return undefined;
  const message = strictSchemaProblem(format.schema, format.name ?? 'response');
  return message ? { message, param, code: 'invalid_json_schema' } : undefined;
}

/**
 * A reasoning item must come back followed by the item it was produced with (a message or a function
 * call), never alone or before a user message. Wording: "Item 'rs_…' of type 'reasoning' was provided
 * without its required following item." (README). `followers` maps reasoning ids this server issued to
 * the id of the item that followed them.
 * @param {any[]} input
 * @param {Map<string, string>} followers
 * @returns {OpenAIRejection | undefined}
 */
export function reasoningPairProblem(input, followers) {
  for (const [index, item] of input.entries()) {
    if (item?.type !== 'reasoning' || typeof item.id !== 'string') continue;
    const next = input[index + 1];
    const follows = next !== undefined && (next.type === 'function_call' || (next.type === 'message' && next.role === 'assistant') || (next.type === undefined && next.role === 'assistant'));
    const expected = followers.get(item.id);
    if (!follows || (expected !== undefined && typeof next.id === 'string' && next.id !== expected)) {
      return { message: `Item '${item.id}' of type 'reasoning' was provided without its required following item.`, param: 'input', code: null };
    }
  }
  return undefined;
}

/**
 * Empty input text: a string input or content text must not be empty.
 * @param {any} input
 * @returns {OpenAIRejection | undefined}
 */
export function emptyInputProblem(input) {
  if (input === '') return { message: "Invalid 'input': empty string. Expected a string with minimum length 1, but got an empty string instead.", param: 'input', code: 'empty_string' };
  if (!Array.isArray(input)) return undefined;
  for (const [i, item] of input.entries()) {
    if (item?.content === '') return { message: `Invalid 'input[${i}].content': empty string. Expected a string with minimum length 1, but got an empty string instead.`, param: `input[${i}].content`, code: 'empty_string' };
    if (!Array.isArray(item?.content)) continue;
    for (const [j, part] of item.content.entries()) {
      if ((part?.type === 'input_text' || part?.type === 'output_text') && part.text === '') {
        const param = `input[${i}].content[${j}].text`;
        return { message: `Invalid '${param}': empty string. Expected a string with minimum length 1, but got an empty string instead.`, param, code: 'empty_string' };
      }
    }
  }
  return undefined;
}

/**
 * @param {any} body
 * @param {OpenAIModel} row
 * @param {Map<string, string>} followers
 * @returns {OpenAIRejection | undefined}
 */
export function responsesProblem(body, row, followers) {
  return (
    effortProblem(row, body.reasoning?.effort ?? (body.reasoning && row.efforts === null ? row.effortDefault ?? 'medium' : undefined), 'reasoning.effort') ??
    outputLimitProblem(row, body.max_output_tokens, 'max_output_tokens') ??
    (body.text?.format?.type === 'json_schema' ? schemaProblem(body.text.format, 'text.format.schema') : undefined) ??
    emptyInputProblem(body.input) ??
    (Array.isArray(body.input) ? reasoningPairProblem(body.input, followers) : undefined)
  );
}

/**
 * @param {any} body
 * @param {OpenAIModel} row
 * @returns {OpenAIRejection | undefined}
 */
export function chatProblem(body, row) {
  const empty = (body.messages ?? []).findIndex((/** @type {any} */ m) => m?.role === 'user' && m.content === '');
  return (
    effortProblem(row, body.reasoning_effort, 'reasoning_effort') ??
    outputLimitProblem(row, body.max_completion_tokens ?? body.max_tokens, body.max_completion_tokens === undefined ? 'max_tokens' : 'max_completion_tokens') ??
    (body.response_format?.type === 'json_schema' ? schemaProblem(body.response_format.json_schema, 'response_format') : undefined) ??
    (empty >= 0 ? { message: `Invalid 'messages[${empty}].content': empty string. Expected a string with minimum length 1, but got an empty string instead.`, param: `messages[${empty}].content`, code: 'empty_string' } : undefined)
  );
}
