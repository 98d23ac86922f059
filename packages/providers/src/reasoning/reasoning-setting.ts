/**
 * How much a model should reason (`assistant.reasoning`, `--reasoning`); unset sends nothing
 * (RFD 028). Lowest first: each provider maps a level to the nearest one its model takes (RFD 031).
 */
export const REASONING_LEVELS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];
export type ReasoningSetting = ReasoningLevel | { budgetTokens: number };

/**
 * The thinking budget a level stands for, where a vendor takes tokens (Anthropic's budget-only
 * models, Gemini 2.5). `minimal` is Anthropic's smallest allowed budget; `max` asks for as much
 * as the model allows, so each provider lowers it to its model's ceiling.
 */
export const LEVEL_BUDGETS: Readonly<Record<Exclude<ReasoningLevel, 'off'>, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 10_000,
  high: 32_000,
  xhigh: 64_000,
  max: 128_000,
};

/** Tokens to think with: a level's budget, or the one given; 0 for `off`. */
export function reasoningBudget(setting: ReasoningSetting): number {
  if (typeof setting === 'object') return setting.budgetTokens;
  return setting === 'off' ? 0 : LEVEL_BUDGETS[setting];
}

/** The level for a vendor that takes levels: a budget becomes the smallest level that covers it (`max` above all). */
export function reasoningLevel(setting: ReasoningSetting): ReasoningLevel {
  if (typeof setting === 'string') return setting;
  if (setting.budgetTokens <= 0) return 'off';
  for (const level of ['minimal', 'low', 'medium', 'high', 'xhigh'] as const) if (setting.budgetTokens <= LEVEL_BUDGETS[level]) return level;
  return 'max';
}

/**
 * The level of `accepted` nearest to `wanted` by rank; a tie goes to the lower one, which costs
 * less. `accepted` is in jp's words; undefined when it is empty.
 */
export function nearestLevel(wanted: ReasoningLevel, accepted: readonly ReasoningLevel[]): ReasoningLevel | undefined {
  const rank = (level: ReasoningLevel) => REASONING_LEVELS.indexOf(level);
  let best: ReasoningLevel | undefined;
  for (const level of [...accepted].sort((a, b) => rank(a) - rank(b))) {
    if (best === undefined || Math.abs(rank(level) - rank(wanted)) < Math.abs(rank(best) - rank(wanted))) best = level;
  }
  return best;
}

/** "--reasoning high" or "reasoning budget 5000", as a warning names what was asked. */
export function describeSetting(setting: ReasoningSetting): string {
  return typeof setting === 'object' ? `a reasoning budget of ${setting.budgetTokens} tokens` : `--reasoning ${setting}`;
}
