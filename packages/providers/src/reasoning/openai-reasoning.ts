import { reasoningLevel, type ReasoningSetting } from './reasoning-setting.ts';

export interface OpenAIReasoning {
  effort: 'none' | 'minimal' | 'low' | 'medium' | 'high';
  summary?: 'auto';
}

/**
 * The Responses API's `reasoning`: the level as `effort` (`off` is `none`; a budget becomes the
 * level that covers it), with a summary asked for only when reasoning is shown, since OpenAI
 * returns no raw reasoning text.
 */
export function openaiReasoning(setting: ReasoningSetting, showReasoning: boolean): OpenAIReasoning {
  const level = reasoningLevel(setting);
  const reasoning: OpenAIReasoning = { effort: level === 'off' ? 'none' : level };
  if (showReasoning && level !== 'off') reasoning.summary = 'auto';
  return reasoning;
}
