// GET /v1/models and GET /v1/models/{id}, shaped as the SDK's models.d.ts types them (ModelInfo, paged
// with data/has_more/first_id/last_id; limit 1–1000, default 20, before_id/after_id cursors).
// https://platform.claude.com/docs/en/api/models/list
/** @import { AnthropicModel } from './anthropic-models.mjs' */
/** @import { JsonResponse } from '../../wire-types.mjs' */
import { anthropicErrorResponse } from '../../anthropic-responses.mjs';
import { jsonResponse } from '../../responses.mjs';

/** @param {boolean} supported */
const support = (supported) => ({ supported });

/**
 * @param {AnthropicModel} row
 * @returns {Record<string, unknown>}
 */
export function anthropicModelInfo(row) {
  const effort = row.effort ?? [];
  const thinks = row.thinking.adaptive || row.thinking.enabled;
  return {
    type: 'model',
    id: row.id,
    display_name: row.name,
    created_at: row.created,
    lifecycle: 'active',
    deprecated_at: null,
    retires_at: null,
    line: row.line,
    max_input_tokens: row.context,
    max_tokens: row.maxTokens,
    capabilities: {
      batch: support(true),
      citations: support(true),
      code_execution: support(false),
      // Which context-management strategies each model takes is not on the pages read: left unknown.
      context_management: { supported: true, clear_thinking_20251015: null, clear_tool_uses_20250919: null, compact_20260112: null },
      effort: {
        supported: row.effort !== null,
        low: support(effort.includes('low')),
        medium: support(effort.includes('medium')),
        high: support(effort.includes('high')),
        xhigh: support(effort.includes('xhigh')),
        max: support(effort.includes('max')),
      },
      image_input: support(true),
      pdf_input: support(true),
      server_tools: { supported: false, code_execution: support(false), web_search: support(false) },
      structured_outputs: support(row.structuredOutputs),
      thinking: {
        supported: thinks,
        types: {
          adaptive: support(row.thinking.adaptive),
          enabled: support(row.thinking.enabled),
          disabled: support(row.thinking.disabled),
          between_tools: support(row.thinking.between_tools),
        },
      },
    },
  };
}

/**
 * @param {readonly AnthropicModel[]} models
 * @param {Record<string, string>} query
 * @returns {JsonResponse}
 */
export function anthropicModelList(models, query) {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    return anthropicErrorResponse(400, { message: 'limit: Input should be less than or equal to 1000' });
  }
  let rows = [...models];
  if (query.after_id !== undefined) rows = rows.slice(rows.findIndex((row) => row.id === query.after_id) + 1);
  if (query.before_id !== undefined) {
    const end = rows.findIndex((row) => row.id === query.before_id);
    rows = rows.slice(Math.max(0, end - limit), Math.max(0, end));
  }
  const page = rows.slice(0, limit);
  return jsonResponse(200, {
    data: page.map(anthropicModelInfo),
    has_more: rows.length > page.length,
    first_id: page[0]?.id ?? null,
    last_id: page.at(-1)?.id ?? null,
  });
}

/** @param {string} id */
export const anthropicModelNotFound = (id) => anthropicErrorResponse(404, { type: 'not_found_error', message: `model: ${id}` });
