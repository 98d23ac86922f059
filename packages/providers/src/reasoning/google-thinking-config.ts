import { reasoningBudget, reasoningLevel, type ReasoningSetting } from './reasoning-setting.ts';

type GoogleThinkingLevel = 'MINIMAL' | 'LOW' | 'MEDIUM' | 'HIGH';
export interface GoogleThinkingConfig {
  includeThoughts?: boolean;
  thinkingBudget?: number;
  thinkingLevel?: GoogleThinkingLevel;
}

/** Gemini 2.5 Pro cannot stop thinking; its smallest budget is 128. */
const PRO_25_MIN_BUDGET = 128;

/**
 * `thinkingConfig` by model family: Gemini 3 takes a `thinkingLevel` (Pro only LOW and HIGH,
 * so a level it lacks becomes the nearest one it has; no Gemini 3 can stop thinking, so `off`
 * is its lowest level); earlier models take `thinkingBudget` (0 turns thinking off where the
 * model allows it). Thoughts are asked for whenever the model thinks: jp stores them.
 */
export function googleThinkingConfig(model: string, setting: ReasoningSetting): GoogleThinkingConfig {
  if (/^gemini-3/.test(model)) {
    const level = reasoningLevel(setting);
    const pro = /pro/.test(model);
    let wire: GoogleThinkingLevel;
    if (level === 'off' || level === 'minimal') wire = pro ? 'LOW' : 'MINIMAL';
    else if (level === 'low') wire = 'LOW';
    else if (level === 'medium') wire = pro ? 'HIGH' : 'MEDIUM';
    else wire = 'HIGH';
    return { thinkingLevel: wire, includeThoughts: true };
  }
  let budget = reasoningBudget(setting);
  if (budget === 0 && /^gemini-2\.5-pro/.test(model)) budget = PRO_25_MIN_BUDGET;
  return budget === 0 ? { thinkingBudget: 0 } : { thinkingBudget: budget, includeThoughts: true };
}
