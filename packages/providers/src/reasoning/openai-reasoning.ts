import { effortLevels, levelAsEffort } from '../catalog/effort-words.ts';
import type { ModelInfo } from '../catalog/model-info.ts';
import { describeSetting, nearestLevel, reasoningLevel, type ReasoningSetting } from './reasoning-setting.ts';

export interface OpenAIReasoning {
  effort: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
  summary?: 'auto';
}

/**
 * The Responses API's `reasoning` for a setting on a model: the model's own effort values
 * (developers.openai.com/api/docs/guides/reasoning: "Supported values are model-dependent":
 * gpt-5 takes `minimal`, gpt-5.1 and later `none`, gpt-5.2 and later `xhigh`), the nearest one
 * where it lacks the level asked for, with a warning naming both. A budget becomes the level that
 * covers it. A summary is asked for only when reasoning is shown, since OpenAI returns no raw
 * reasoning text. Nothing is sent to a model that does not reason, nor to one jp does not know.
 */
export function openaiReasoning(
  setting: ReasoningSetting | undefined,
  showReasoning: boolean,
  info: ModelInfo | undefined,
): { reasoning?: OpenAIReasoning | undefined; warnings: string[] } {
  if (setting === undefined || info === undefined) return { warnings: [] };
  const level = reasoningLevel(setting);
  const efforts = info.reasoning === false ? undefined : info.reasoning?.efforts;
  if (efforts === undefined || efforts.length === 0) {
    return { warnings: level === 'off' ? [] : [`${info.id} does not reason; ${describeSetting(setting)} is not sent`] };
  }
  const nearest = nearestLevel(level, effortLevels(efforts))!;
  const effort = levelAsEffort(nearest, efforts) as OpenAIReasoning['effort'];
  const warnings = nearest === level ? [] : [`${info.id} has no ${level === 'off' ? 'way to stop reasoning' : `${level} effort`}; ${effort} is sent instead (it takes ${efforts.join(', ')})`];
  const reasoning: OpenAIReasoning = { effort };
  if (showReasoning && effort !== 'none') reasoning.summary = 'auto';
  return { reasoning, warnings };
}
