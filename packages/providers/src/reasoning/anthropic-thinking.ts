import { effortLevels, levelAsEffort } from '../catalog/effort-words.ts';
import type { ModelInfo } from '../catalog/model-info.ts';
import { clampMaxTokens } from './clamp-max-tokens.ts';
import { describeSetting, LEVEL_BUDGETS, nearestLevel, reasoningLevel, type ReasoningSetting } from './reasoning-setting.ts';

/** Anthropic's smallest thinking budget (ThinkingConfigEnabled.budget_tokens: "Must be ≥1024 and less than max_tokens"). */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

export type AnthropicThinking =
  | { type: 'enabled'; budget_tokens: number }
  | { type: 'adaptive'; display?: 'summarized' }
  | { type: 'disabled' }
  | { type: 'between_tools' };

export type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface AnthropicReasoningPlan {
  thinking?: AnthropicThinking | undefined;
  /** `output_config.effort`. */
  effort?: AnthropicEffort | undefined;
  maxTokens: number;
  warnings: string[];
}

/**
 * `thinking`, `output_config.effort` and `max_tokens` for a setting on a model, by what the model
 * accepts (its `thinking.types` and effort levels: platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting):
 * - adaptive thinking with the nearest effort it has where it thinks adaptively;
 * - a token budget where it takes only `enabled` (a level's budget, lowered to fit its output limit);
 * - `off` as `disabled`, or `between_tools` where that is its lowest setting; a model that cannot
 *   stop thinking gets its lowest effort.
 * A level the model lacks becomes the nearest it has, with one warning naming both. `max_tokens`
 * never exceeds the model's maximum. An unknown model gets no thinking setting at all (nothing
 * is guessed); a model that does not reason gets none, with a warning.
 */
export function anthropicThinking(
  setting: ReasoningSetting | undefined,
  info: ModelInfo | undefined,
  options: { maxTokens: number | undefined; defaultMaxTokens: number; showReasoning?: boolean | undefined },
): AnthropicReasoningPlan {
  const name = info?.id ?? 'this model';
  const limited = clampMaxTokens(options.maxTokens, options.defaultMaxTokens, info);
  const plan: AnthropicReasoningPlan = { maxTokens: limited.maxTokens, warnings: [...limited.warnings] };
  if (setting === undefined || info === undefined) return plan;
  const level = reasoningLevel(setting);
  const reasoning = info.reasoning;
  if (reasoning === false || reasoning === undefined) {
    if (level !== 'off') plan.warnings.push(`${name} does not reason; ${describeSetting(setting)} is not sent`);
    return plan;
  }
  const types = reasoning.thinkingTypes ?? (reasoning.efforts !== undefined ? ['adaptive'] : []);
  const efforts = effortLevels(reasoning.efforts);
  const adaptive = (): AnthropicThinking => (options.showReasoning ? { type: 'adaptive', display: 'summarized' } : { type: 'adaptive' });

  if (level === 'off') {
    if (types.includes('disabled')) plan.thinking = { type: 'disabled' };
    else if (types.includes('between_tools')) plan.thinking = { type: 'between_tools' };
    else if (types.includes('adaptive') && efforts.length > 0) {
      plan.thinking = adaptive();
      plan.effort = levelAsEffort(efforts[0]!, reasoning.efforts!) as AnthropicEffort;
      plan.warnings.push(`${name} cannot stop thinking; --reasoning off sends its lowest effort, ${plan.effort}`);
    } else plan.warnings.push(`${name} cannot stop thinking; --reasoning off is not sent`);
    return plan;
  }

  if (types.includes('adaptive')) {
    plan.thinking = adaptive();
    const nearest = nearestLevel(level, efforts);
    if (nearest === undefined) return plan;
    plan.effort = levelAsEffort(nearest, reasoning.efforts!) as AnthropicEffort;
    if (typeof setting === 'object') plan.warnings.push(`${name} takes an effort level, not a budget; ${describeSetting(setting)} is sent as effort ${plan.effort}`);
    else if (nearest !== level) plan.warnings.push(`${name} has no ${level} effort; ${plan.effort} is sent instead (it takes ${reasoning.efforts!.join(', ')})`);
    return plan;
  }

  if (types.includes('enabled')) return withBudget(plan, setting, level, info, options);
  plan.warnings.push(`${name} takes neither adaptive thinking nor a budget; ${describeSetting(setting)} is not sent`);
  return plan;
}

/**
 * A token budget below `max_tokens`. Unset, `max_tokens` is raised to make room for the answer
 * after the thinking, up to the model's maximum; a level's budget is lowered silently to fit (it
 * asks for "as much as this level", and the model's ceiling is that), an explicit one with a warning.
 */
function withBudget(
  plan: AnthropicReasoningPlan,
  setting: ReasoningSetting,
  level: Exclude<ReturnType<typeof reasoningLevel>, 'off'>,
  info: ModelInfo,
  options: { maxTokens: number | undefined; defaultMaxTokens: number },
): AnthropicReasoningPlan {
  const name = info.id;
  const limit = info.maxOutputTokens ?? Number.POSITIVE_INFINITY;
  const wanted = Math.max(typeof setting === 'object' ? setting.budgetTokens : LEVEL_BUDGETS[level], ANTHROPIC_MIN_THINKING_BUDGET);
  if (options.maxTokens === undefined) {
    plan.maxTokens = Math.min(wanted < options.defaultMaxTokens ? options.defaultMaxTokens : wanted + options.defaultMaxTokens, limit);
  }
  // Keep room for the answer: a quarter of the output, at most the default answer length.
  const room = options.maxTokens === undefined ? Math.min(options.defaultMaxTokens, Math.floor(plan.maxTokens / 4)) : 1;
  const ceiling = Math.min(plan.maxTokens - room, info.reasoning !== false ? (info.reasoning?.budget?.max ?? Number.POSITIVE_INFINITY) : 0);
  let budget = Math.min(wanted, ceiling);
  if (budget < ANTHROPIC_MIN_THINKING_BUDGET) {
    plan.warnings.push(`max_tokens = ${plan.maxTokens} leaves no room for thinking on ${name} (at least ${ANTHROPIC_MIN_THINKING_BUDGET} tokens below it); thinking is not asked for`);
    return plan;
  }
  if (budget < wanted && (typeof setting === 'object' || options.maxTokens !== undefined)) {
    plan.warnings.push(`thinking budget lowered from ${wanted} to ${budget} tokens to stay below max_tokens = ${plan.maxTokens} on ${name}`);
  }
  budget = Math.floor(budget);
  plan.thinking = { type: 'enabled', budget_tokens: budget };
  return plan;
}
