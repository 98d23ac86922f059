import { effortLevels, levelAsEffort } from '../catalog/effort-words.ts';
import type { ModelInfo } from '../catalog/model-info.ts';
import { describeSetting, LEVEL_BUDGETS, nearestLevel, reasoningLevel, type ReasoningSetting } from './reasoning-setting.ts';

export interface GoogleThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  thinkingLevel?: string;
}

/**
 * `thinkingConfig` by what the model takes (ai.google.dev/gemini-api/docs/thinking): Gemini 3 a
 * `thinkingLevel` (the nearest it has, with a warning; no Gemini 3 can stop thinking), Gemini 2.5
 * a `thinkingBudget` within the model's range (2.5 Flash 0–24 576, 2.5 Pro 128–32 768 and never
 * 0). A level's budget above the range is the range's top, silently ("as much as it goes"); an
 * explicit budget outside it, or `off` on a model that cannot stop, is moved into it with a
 * warning. Thoughts are asked for whenever the model thinks: jp stores them. An unknown model gets
 * no thinking setting.
 */
export function googleThinkingConfig(setting: ReasoningSetting | undefined, info: ModelInfo | undefined): { config?: GoogleThinkingConfig | undefined; warnings: string[] } {
  if (setting === undefined || info === undefined) return { warnings: [] };
  const level = reasoningLevel(setting);
  const reasoning = info.reasoning;
  if (reasoning === false || reasoning === undefined) {
    return { warnings: level === 'off' ? [] : [`${info.id} does not reason; ${describeSetting(setting)} is not sent`] };
  }
  const efforts = reasoning.efforts ?? [];
  if (efforts.length > 0) {
    const nearest = nearestLevel(level, effortLevels(efforts))!;
    const thinkingLevel = levelAsEffort(nearest, efforts)!;
    const warnings = nearest === level ? [] : [`${info.id} has no ${level === 'off' ? 'way to stop thinking' : `${level} thinking level`}; ${thinkingLevel} is sent instead (it takes ${efforts.join(', ')})`];
    return { config: { thinkingLevel, includeThoughts: true }, warnings };
  }
  const range = reasoning.budget;
  if (range === undefined) return { warnings: [`${info.id} takes no thinking setting jp knows; ${describeSetting(setting)} is not sent`] };
  const stops = range.off === true || range.min === 0;
  if (level === 'off') {
    if (stops) return { config: { thinkingBudget: 0 }, warnings: [] };
    return { config: { thinkingBudget: range.min, includeThoughts: true }, warnings: [`${info.id} cannot stop thinking; its smallest budget, ${range.min} tokens, is sent`] };
  }
  const wanted = typeof setting === 'object' ? setting.budgetTokens : LEVEL_BUDGETS[level];
  const budget = Math.min(Math.max(wanted, Math.max(range.min, 1)), range.max);
  const warnings = typeof setting === 'object' && budget !== wanted ? [`${info.id} thinks with ${range.min}–${range.max} tokens; ${budget} is sent instead of ${wanted}`] : [];
  return { config: { thinkingBudget: budget, includeThoughts: true }, warnings };
}
