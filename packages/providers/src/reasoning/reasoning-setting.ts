/** How much a model should reason (`assistant.reasoning`, `--reasoning`); unset sends nothing (RFD 028). */
export const REASONING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high'] as const;
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];
export type ReasoningSetting = ReasoningLevel | { budgetTokens: number };

/**
 * The thinking budget a level stands for, where a vendor takes tokens (Anthropic, Gemini 2.5).
 * `minimal` is Anthropic's smallest allowed budget; the others follow the vendors' own examples.
 */
export const LEVEL_BUDGETS: Readonly<Record<Exclude<ReasoningLevel, 'off'>, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 10_000,
  high: 32_000,
};

/** Tokens to think with: a level's budget, or the one given; 0 for `off`. */
export function reasoningBudget(setting: ReasoningSetting): number {
  if (typeof setting === 'object') return setting.budgetTokens;
  return setting === 'off' ? 0 : LEVEL_BUDGETS[setting];
}

/** The level for a vendor that takes levels: a budget becomes the smallest level that covers it (`high` above all). */
export function reasoningLevel(setting: ReasoningSetting): ReasoningLevel {
  if (typeof setting === 'string') return setting;
  if (setting.budgetTokens <= 0) return 'off';
  for (const level of ['minimal', 'low', 'medium'] as const) if (setting.budgetTokens <= LEVEL_BUDGETS[level]) return level;
  return 'high';
}
