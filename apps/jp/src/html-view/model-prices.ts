import type { TurnTokens } from './turn-usage.ts';

/** US dollars per million tokens of each kind. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * The price of `model` (`provider/model`) among `prices`, which the command took from the model
 * catalog (RFD 031) for the models the conversation used; `undefined` when unknown.
 */
export function priceOf(model: string | undefined, prices: Readonly<Record<string, ModelPrice>> = {}): ModelPrice | undefined {
  return model === undefined ? undefined : prices[model];
}

/** Estimated cost in US dollars of a turn's tokens at `price`. */
export function costOf(tokens: TurnTokens, price: ModelPrice): number {
  return (
    (tokens.uncachedInput * price.input + tokens.cacheWrite * price.cacheWrite + tokens.cacheRead * price.cacheRead + tokens.output * price.output) / 1_000_000
  );
}
