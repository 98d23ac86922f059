import { reasoningLevel, type ReasoningSetting } from './reasoning-setting.ts';

/**
 * The reasoning fields of a chat-completions request. OpenRouter takes its unified `reasoning`
 * object (`effort`, or `max_tokens` for a budget); Ollama's OpenAI-compatible endpoint takes
 * `reasoning_effort` (its native `think` is not read there), with `none` for off and no
 * `minimal` (sent as `low`).
 */
export function openaiCompatibleReasoning(vendor: 'openrouter' | 'ollama', setting: ReasoningSetting): Record<string, unknown> {
  if (vendor === 'openrouter') {
    if (typeof setting === 'object') return { reasoning: { max_tokens: setting.budgetTokens } };
    return { reasoning: { effort: setting === 'off' ? 'none' : setting } };
  }
  const level = reasoningLevel(setting);
  return { reasoning_effort: level === 'off' ? 'none' : level === 'minimal' ? 'low' : level };
}
