import { baseModelId } from '../config/base-model-id.ts';
import type { Config } from '../config/config-schema.ts';

/**
 * The context windows, in tokens, of the models jp ships prices for (html-view/model-prices.ts),
 * by `provider/model`. Sources, read 2026-11-28 (RFD 027, "The window"): Anthropic's model pages
 * (platform.claude.com/docs/en/models/<model>/overview: 200K for every Claude 4.x and 3.5 Haiku;
 * Sonnet's 1M window is a beta header jp does not send); OpenAI's model pages
 * (platform.openai.com/docs/models: GPT-5 family 400 000, GPT-4.1 family 1 047 576, GPT-4o
 * 128 000); Google's (ai.google.dev/gemini-api/docs/models: Gemini 2.5 input limit 1 048 576).
 * `providers.<p>.models."<id>".context_window` sets or overrides one.
 */
export const DEFAULT_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  'anthropic/claude-opus-4-5': 200_000,
  'anthropic/claude-opus-4-1': 200_000,
  'anthropic/claude-opus-4-0': 200_000,
  'anthropic/claude-sonnet-4-5': 200_000,
  'anthropic/claude-sonnet-4-0': 200_000,
  'anthropic/claude-haiku-4-5': 200_000,
  'anthropic/claude-3-5-haiku': 200_000,
  'openai/gpt-5': 400_000,
  'openai/gpt-5-mini': 400_000,
  'openai/gpt-5-nano': 400_000,
  'openai/gpt-4.1': 1_047_576,
  'openai/gpt-4.1-mini': 1_047_576,
  'openai/gpt-4o': 128_000,
  'openai/gpt-4o-mini': 128_000,
  'google/gemini-2.5-pro': 1_048_576,
  'google/gemini-2.5-flash': 1_048_576,
  'google/gemini-2.5-flash-lite': 1_048_576,
};

/**
 * The context window of `model` at `provider`, in tokens: configured first, then jp's table;
 * undefined when neither knows it (jp then never compacts by itself before sending, and still
 * handles the provider's rejection). OpenRouter's ids name their vendor (`anthropic/claude-…`)
 * and find that vendor's entry.
 */
export function contextWindowOf(provider: string, model: string, config: Pick<Config, 'providers'>): number | undefined {
  const key = model.includes('/') ? model : `${provider}/${model}`;
  const base = baseModelId(key);
  const configured = config.providers[provider]?.models;
  // Configured windows are keyed by the model id without its provider.
  const own = configured?.[model]?.context_window ?? configured?.[base.slice(base.indexOf('/') + 1)]?.context_window;
  if (own !== undefined) return own;
  return DEFAULT_CONTEXT_WINDOWS[key] ?? DEFAULT_CONTEXT_WINDOWS[base];
}
