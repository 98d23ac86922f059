import { baseModelId } from '../config/base-model-id.ts';
import type { TurnTokens } from './turn-usage.ts';

/** US dollars per million tokens of each kind. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * Prices of known models, by `provider/model` as jp names them (a dated snapshot id finds its
 * model: `claude-sonnet-4-5-20250929` is `claude-sonnet-4-5`). Sources and dates in RFD 022:
 * Anthropic's pricing page (cache writes at the 5-minute rate, Anthropic's default), OpenAI's
 * (a cache write costs what input does), Google's for prompts up to 200 000 tokens (context-cache
 * storage per hour is not a token price and is left out). `providers.<p>.prices."<model>"`
 * in config adds or replaces entries.
 */
export const DEFAULT_PRICES: Readonly<Record<string, ModelPrice>> = {
  'anthropic/claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'anthropic/claude-opus-4-1': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'anthropic/claude-opus-4-0': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'anthropic/claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'anthropic/claude-sonnet-4-0': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'anthropic/claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'anthropic/claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  'openai/gpt-5': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 },
  'openai/gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0.25 },
  'openai/gpt-5-nano': { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0.05 },
  'openai/gpt-4.1': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2 },
  'openai/gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0.4 },
  'openai/gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 2.5 },
  'openai/gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0.15 },
  'google/gemini-2.5-pro': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 },
  'google/gemini-2.5-flash': { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0.3 },
  'google/gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cacheRead: 0.01, cacheWrite: 0.1 },
};


/** The price of `model` (`provider/model`): configured first, then the defaults; `undefined` when unknown. */
export function priceOf(model: string | undefined, configured: Readonly<Record<string, ModelPrice>> = {}): ModelPrice | undefined {
  if (model === undefined) return undefined;
  return configured[model] ?? configured[baseModelId(model)] ?? DEFAULT_PRICES[model] ?? DEFAULT_PRICES[baseModelId(model)];
}

/** Estimated cost in US dollars of a turn's tokens at `price`. */
export function costOf(tokens: TurnTokens, price: ModelPrice): number {
  return (
    (tokens.uncachedInput * price.input + tokens.cacheWrite * price.cacheWrite + tokens.cacheRead * price.cacheRead + tokens.output * price.output) / 1_000_000
  );
}
