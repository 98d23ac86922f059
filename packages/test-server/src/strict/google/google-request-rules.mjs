// Request rules of the strict Gemini stand-in (generateContent / streamGenerateContent). Errors are
// Google's shape: {error: {code, message, status}}; wordings from the API's 400s (README).
/** @import { GoogleModel } from './google-models.mjs' */

/** Fields of the OpenAPI-subset Schema `responseSchema` takes (@google/genai 2.32 `Schema`). */
const SCHEMA_FIELDS = new Set(['anyOf', 'default', 'description', 'enum', 'example', 'format', 'items', 'maxItems', 'maxLength', 'maxProperties', 'maximum', 'minItems', 'minLength', 'minProperties', 'minimum', 'nullable', 'pattern', 'properties', 'propertyOrdering', 'required', 'title', 'type']);
const DATA_FIELDS = ['text', 'inlineData', 'functionCall', 'functionResponse', 'fileData', 'executableCode', 'codeExecutionResult'];

/**
 * @param {any} thinking
 * @param {GoogleModel} row
 * @returns {string | undefined}
 */
function thinkingProblem(thinking, row) {
  if (!thinking) return undefined;
  const budget = thinking.thinkingBudget;
  const level = typeof thinking.thinkingLevel === 'string' ? thinking.thinkingLevel.toUpperCase() : thinking.thinkingLevel;
  if (budget !== undefined && level !== undefined) return 'You can only set only one of thinking budget and thinking level.';
  if (level !== undefined) {
    // 2.5 and earlier reject thinking_level (thinking page, "Gemini 2.5 and earlier models").
    if (row.levels === null) return 'Thinking level is not supported for this model.';
    if (!row.levels.includes(level)) return `Thinking level ${level} is not supported for this model. Please retry with other thinking level.`;
  }
  if (budget !== undefined && row.budget !== null && budget !== -1) {
    if (budget === 0 && !row.budget.canDisable) return 'Budget 0 is invalid. This model only works in thinking mode.';
    if (budget !== 0 && (budget < row.budget.min || budget > row.budget.max)) {
      return `The thinking budget ${budget} is invalid. Please choose a value between ${row.budget.min} and ${row.budget.max}.`;
    }
  }
  return undefined;
}

/**
 * @param {any} schema
 * @param {string} path
 * @returns {string | undefined}
 */
function schemaFieldProblem(schema, path) {
  if (schema === null || typeof schema !== 'object') return undefined;
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_FIELDS.has(key)) return `Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`;
  }
  const properties = Object.values(schema.properties ?? {});
  for (const [index, value] of properties.entries()) {
    const found = schemaFieldProblem(value, `${path}.properties[${index}].value`);
    if (found) return found;
  }
  return schema.items ? schemaFieldProblem(schema.items, `${path}.items`) : undefined;
}

/**
 * Gemini 3 requires the signature of the first function call of each model step in the current turn
 * (https://ai.google.dev/gemini-api/docs/thought-signatures); `position` counts contents from 1.
 * @param {any[]} contents
 * @returns {string | undefined}
 */
export function missingSignature(contents) {
  let start = 0;
  contents.forEach((content, index) => {
    const parts = Array.isArray(content?.parts) ? content.parts : [];
    if (content?.role === 'user' && parts.some((/** @type {any} */ p) => p?.functionResponse === undefined)) start = index + 1;
  });
  for (let index = start; index < contents.length; index += 1) {
    const content = contents[index];
    if (content?.role !== 'model') continue;
    const call = (content.parts ?? []).find((/** @type {any} */ p) => p?.functionCall !== undefined);
    if (call && typeof call.thoughtSignature !== 'string') {
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${call.functionCall.name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
    }
  }
  return undefined;
}

/**
 * @param {any} body
 * @param {GoogleModel} row
 * @returns {string | undefined}
 */
export function googleRequestProblem(body, row) {
  const contents = body?.contents;
  if (!Array.isArray(contents) || contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified\n';
  for (const [i, content] of contents.entries()) {
    if (!Array.isArray(content?.parts) || content.parts.length === 0) return `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`;
    for (const [j, part] of content.parts.entries()) {
      if (!DATA_FIELDS.some((field) => part?.[field] !== undefined)) {
        return `* GenerateContentRequest.contents[${i}].parts[${j}].data: required oneof field 'data' must have one initialized field\n`;
      }
    }
  }
  const config = body.generationConfig ?? {};
  const thinking = thinkingProblem(config.thinkingConfig, row);
  if (thinking) return thinking;
  const max = config.maxOutputTokens;
  if (typeof max === 'number' && (max < 1 || max > row.outputTokenLimit)) {
    return `Unable to submit request because it has a maxOutputTokens value of ${max} but the supported range is from 1 (inclusive) to ${row.outputTokenLimit + 1} (exclusive). Update the value and try again.`;
  }
  if (config.responseSchema !== undefined) {
    const found = schemaFieldProblem(config.responseSchema, 'generation_config.response_schema');
    if (found) return found;
  }
  // A response schema needs responseMimeType application/json (structured-output page); no exact text found.
  if ((config.responseSchema !== undefined || config.responseJsonSchema !== undefined) && config.responseMimeType !== 'application/json') {
    return 'Request contains an invalid argument.';
  }
  return row.levels !== null ? missingSignature(contents) : undefined;
}
