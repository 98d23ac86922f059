import { reasoningBudget, type ReasoningSetting } from './reasoning-setting.ts';

/** Anthropic's smallest thinking budget. */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

export type AnthropicThinking = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };

/**
 * `thinking` and `max_tokens` for a setting. Anthropic wants the budget below `max_tokens`, so:
 * with `max_tokens` unset, jp raises its default to make room for the answer after the thinking;
 * with `max_tokens` set, the user's limit wins and the budget is lowered below it (a warning
 * says so), and below 1 024 tokens thinking is not asked for at all.
 */
export function anthropicThinking(
  setting: ReasoningSetting,
  maxTokens: number | undefined,
  defaultMaxTokens: number,
): { thinking: AnthropicThinking | undefined; maxTokens: number; warnings: string[] } {
  const budget = reasoningBudget(setting);
  if (budget === 0) return { thinking: { type: 'disabled' }, maxTokens: maxTokens ?? defaultMaxTokens, warnings: [] };
  const wanted = Math.max(budget, ANTHROPIC_MIN_THINKING_BUDGET);
  if (maxTokens === undefined) {
    const limit = wanted < defaultMaxTokens ? defaultMaxTokens : wanted + defaultMaxTokens;
    return { thinking: { type: 'enabled', budget_tokens: wanted }, maxTokens: limit, warnings: [] };
  }
  if (wanted < maxTokens) return { thinking: { type: 'enabled', budget_tokens: wanted }, maxTokens, warnings: [] };
  const lowered = maxTokens - 1;
  if (lowered < ANTHROPIC_MIN_THINKING_BUDGET) {
    const warning = `assistant.max_tokens = ${maxTokens} leaves no room for Anthropic thinking (at least ${ANTHROPIC_MIN_THINKING_BUDGET} tokens below it); thinking is not asked for`;
    return { thinking: undefined, maxTokens, warnings: [warning] };
  }
  const warning = `thinking budget lowered from ${wanted} to ${lowered} tokens to stay below assistant.max_tokens = ${maxTokens}`;
  return { thinking: { type: 'enabled', budget_tokens: lowered }, maxTokens, warnings: [warning] };
}
