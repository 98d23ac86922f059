// Request-level rules of the strict Anthropic stand-in: max_tokens, thinking, effort, display,
// block_binding, output_config.format, cache breakpoints. Each rule names its page; messages are the
// API's wording where a page or a captured response gives it (see README for the few that do not).
/** @import { AnthropicModel } from './anthropic-models.mjs' */
import { BETA } from './anthropic-betas.mjs';
import { structuredSchemaProblem } from './anthropic-schema-rules.mjs';

/** @typedef {{ status?: number, type?: string, message: string }} Rejection */

const EFFORT_ORDER = ['low', 'medium', 'high', 'xhigh', 'max'];
const ADAPTIVE_HINT = 'Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.';

/**
 * @param {AnthropicModel} row
 * @returns {string}
 */
function disabledMessage(row) {
  // https://platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting — three wordings by model.
  if (row.disabledWording === 'between_tools') {
    return 'To turn thinking off on this model, send "thinking": {"type": "between_tools"} instead of {"type": "disabled"}. The model does not think before responding. The short updates it writes between tool calls come back as thinking blocks.';
  }
  if (row.disabledWording === 'preview') {
    return '"thinking.type.disabled" is not supported for this model. Thinking defaults to adaptive mode when not specified; use "thinking.type.enabled" with "budget_tokens" for extended thinking.';
  }
  return `"thinking.type.disabled" is not supported for this model. ${ADAPTIVE_HINT}`;
}

/**
 * @param {any} thinking
 * @param {AnthropicModel} row
 * @param {Set<string>} betas
 * @returns {Rejection | undefined}
 */
function thinkingProblem(thinking, row, betas) {
  if (thinking === undefined || thinking === null) return undefined;
  const type = thinking.type;
  // https://platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting#rejected-configurations
  if (type === 'enabled' && !row.thinking.enabled) return { message: `"thinking.type.enabled" is not supported for this model. ${ADAPTIVE_HINT}` };
  if (type === 'adaptive' && !row.thinking.adaptive) return { message: 'adaptive thinking is not supported on this model' };
  if (type === 'disabled' && !row.thinking.disabled) return { message: disabledMessage(row) };
  if (type === 'between_tools' && !row.thinking.between_tools) return { message: '"thinking.type.between_tools" is not supported for this model.' };
  if (!['enabled', 'adaptive', 'disabled', 'between_tools'].includes(type)) {
    return { message: "thinking.type: Input should be 'enabled', 'disabled', 'adaptive' or 'between_tools'" };
  }
  const off = type === 'disabled' || type === 'between_tools';
  // SDK types: display and block_binding exist only on ThinkingConfigAdaptive/Enabled; and
  // https://platform.claude.com/docs/en/build-with-claude/thinking#controlling-thinking-display: "display is invalid with disabled".
  if (off && thinking.display !== undefined) return { message: `thinking.${type}.display: Extra inputs are not permitted` };
  if (off && thinking.block_binding !== undefined) return { message: `thinking.${type}.block_binding: Extra inputs are not permitted` };
  if (type === 'enabled') {
    // SDK ThinkingConfigEnabled: "Must be ≥1024 and less than max_tokens."
    if (!Number.isInteger(thinking.budget_tokens) || thinking.budget_tokens < 1024) {
      return { message: 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024' };
    }
  }
  const display = thinking.display;
  // "updates" needs its beta; without it, the same 400 as an unknown value (thinking#progress-updates).
  const displays = betas.has(BETA.displayUpdates) ? ['summarized', 'omitted', 'updates'] : ['summarized', 'omitted'];
  if (display !== undefined && display !== null && !displays.includes(display)) {
    return { message: `thinking.${type}.display: Input should be ${displays.map((d) => `'${d}'`).join(' or ')}` };
  }
  const binding = thinking.block_binding;
  if (binding !== undefined && binding !== null) {
    // preserved-thinking#how-it-works: the field requires the thinking-binding-controls beta.
    if (!betas.has(BETA.bindingControls)) return { message: `thinking.${type}.block_binding: Extra inputs are not permitted` };
    const behavior = binding.prefix_mismatch_behavior;
    if (behavior !== undefined && behavior !== null && behavior !== 'error' && behavior !== 'drop_block') {
      return { message: `thinking.${type}.block_binding.prefix_mismatch_behavior: Input should be 'error' or 'drop_block'` };
    }
  }
  return undefined;
}

/**
 * @param {any} body
 * @param {AnthropicModel} row
 * @returns {Rejection | undefined}
 */
function effortProblem(body, row) {
  const effort = body.output_config?.effort;
  const type = body.thinking?.type;
  if (effort !== undefined && effort !== null) {
    // A captured 400 (anthropics/claude-code#30010) names models without effort.
    if (row.effort === null) return { message: 'This model does not support the effort parameter.' };
    // https://platform.claude.com/docs/en/build-with-claude/effort#effort-levels lists each level's models.
    if (!row.effort.includes(effort)) {
      return { message: `output_config.effort: '${effort}' is not supported for this model; supported values: ${row.effort.map((e) => `'${e}'`).join(', ')}` };
    }
  }
  const off = type === 'disabled' || type === 'between_tools';
  const level = effort ?? row.effortDefault;
  // thinking-troubleshooting, footnotes 2-3: thinking off only at effort high or below.
  if (off && row.offMaxEffort !== null && EFFORT_ORDER.indexOf(level) > EFFORT_ORDER.indexOf(row.offMaxEffort)) {
    return { message: `output_config.effort '${level}' is not supported when thinking is disabled on this model. Use effort '${row.offMaxEffort}' or below, or enable thinking.` };
  }
  return undefined;
}

/**
 * @param {any} body
 * @returns {number}
 */
function cacheBreakpoints(body) {
  let count = body.cache_control ? 1 : 0;
  /** @param {unknown} value */
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      if ('cache_control' in value && value.cache_control) count += 1;
      for (const [key, inner] of Object.entries(value)) if (key !== 'cache_control') walk(inner);
    }
  };
  walk([body.system, body.tools, body.messages]);
  return count;
}

/**
 * Sampling parameters. https://platform.claude.com/docs/en/build-with-claude/thinking#sampling-parameters:
 * on Opus 4.7 and later (every model ranked 8 and up here) non-default values are a 400 on every request;
 * on older models temperature is incompatible with thinking. Wordings from captured 400s (README).
 * @param {any} body
 * @param {AnthropicModel} row
 * @returns {Rejection | undefined}
 */
function samplingProblem(body, row) {
  const set = ['temperature', 'top_p', 'top_k'].filter((name) => body[name] !== undefined && body[name] !== null && !(name === 'temperature' && body[name] === 1));
  if (row.rank >= 8 && set.length > 0) return { message: `\`${set[0]}\` is deprecated for this model.` };
  const thinks = body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive';
  if (thinks && set.includes('temperature')) return { message: '`temperature` may only be set to 1 when thinking is enabled' };
  if (row.rank === 7 && set.includes('temperature') && set.includes('top_p')) {
    return { message: '`temperature` and `top_p` cannot both be specified for this model. Please use only one.' };
  }
  return undefined;
}

/**
 * @param {any} body
 * @param {AnthropicModel} row
 * @param {Set<string>} betas
 * @returns {Rejection | undefined}
 */
export function anthropicConfigProblem(body, row, betas) {
  const maxTokens = body.max_tokens;
  if (!Number.isInteger(maxTokens) || maxTokens < 0) return { message: 'max_tokens: Field required' };
  // The API's wording for a max_tokens over the model's ceiling (captured 400s; ceilings from thinking#output-limits).
  if (maxTokens > row.maxTokens) {
    return { message: `max_tokens: ${maxTokens} > ${row.maxTokens}, which is the maximum allowed number of output tokens for ${row.id}` };
  }
  const thinking = thinkingProblem(body.thinking, row, betas);
  if (thinking) return thinking;
  // SDK ThinkingConfigEnabled: budget_tokens less than max_tokens.
  if (body.thinking?.type === 'enabled' && body.thinking.budget_tokens >= maxTokens) {
    return { message: '`max_tokens` must be greater than `thinking.budget_tokens`.' };
  }
  const effort = effortProblem(body, row) ?? samplingProblem(body, row);
  if (effort) return effort;
  const format = body.output_config?.format;
  if (format !== undefined && format !== null) {
    // https://platform.claude.com/docs/en/build-with-claude/structured-outputs#compatibility
    if (!row.structuredOutputs) return { message: 'output_config.format: Extra inputs are not permitted' };
    if (format.type !== 'json_schema' || format.schema === null || typeof format.schema !== 'object') {
      return { message: "output_config.format.type: Input should be 'json_schema'" };
    }
    const schema = structuredSchemaProblem(format.schema);
    if (schema) return { message: `output_config.format.schema: ${schema}` };
  }
  // https://platform.claude.com/docs/en/build-with-claude/prompt-caching: at most four breakpoints.
  const breakpoints = cacheBreakpoints(body);
  if (breakpoints > 4) return { message: `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.` };
  return undefined;
}
