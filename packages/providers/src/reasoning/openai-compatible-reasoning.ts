import type { ModelInfo } from '../catalog/model-info.ts';
import { describeSetting, nearestLevel, reasoningLevel, type ReasoningSetting } from './reasoning-setting.ts';

const OPENROUTER_LEVELS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

/**
 * The reasoning fields of a chat-completions request. OpenRouter takes its unified `reasoning`
 * object (openrouter.ai/docs/use-cases/reasoning-tokens: `effort` none…xhigh, or `max_tokens` for
 * a budget), sent only to a model its listing or jp's table says reasons; `max` has no OpenRouter
 * effort and is sent as `xhigh`. Ollama's OpenAI-compatible endpoint takes `reasoning_effort`
 * (its native `think` is not read there), with `none` for off and no `minimal` (sent as `low`),
 * except to a model Ollama's listing says does not think.
 */
export function openaiCompatibleReasoning(
  vendor: 'openrouter' | 'ollama',
  setting: ReasoningSetting,
  info?: ModelInfo | undefined,
): { fields: Record<string, unknown>; warnings: string[] } {
  if (vendor === 'openrouter') {
    if (info?.reasoning === false) {
      return { fields: {}, warnings: reasoningLevel(setting) === 'off' ? [] : [`${info.id} does not reason; ${describeSetting(setting)} is not sent`] };
    }
    if (typeof setting === 'object') return { fields: { reasoning: { max_tokens: setting.budgetTokens } }, warnings: [] };
    const level = nearestLevel(setting, OPENROUTER_LEVELS)!;
    const warnings = level === setting ? [] : [`OpenRouter has no ${setting} effort; ${level} is sent instead`];
    return { fields: { reasoning: { effort: level === 'off' ? 'none' : level } }, warnings };
  }
  const level = reasoningLevel(setting);
  // Ollama's listing says which local models think (`/api/show` capabilities); one that does not refuses the field.
  if (info?.reasoning === false) return { fields: {}, warnings: level === 'off' ? [] : [`${info.id} does not think; ${describeSetting(setting)} is not sent`] };
  const effort = level === 'off' ? 'none' : level === 'minimal' ? 'low' : level === 'xhigh' || level === 'max' ? 'high' : level;
  return { fields: { reasoning_effort: effort }, warnings: [] };
}
