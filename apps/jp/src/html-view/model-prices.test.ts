import { describe, expect, it } from 'vitest';
import { costOf, DEFAULT_PRICES, priceOf } from './model-prices.ts';

describe('model prices', () => {
  it('knows Anthropic, OpenAI and Google models, dated snapshots included', () => {
    expect(priceOf('anthropic/claude-sonnet-4-5-20250929')).toEqual(DEFAULT_PRICES['anthropic/claude-sonnet-4-5']);
    expect(priceOf('openai/gpt-4o-2024-08-06')).toEqual(DEFAULT_PRICES['openai/gpt-4o']);
    const flash = priceOf('google/gemini-2.5-flash');
    expect(flash).toEqual(DEFAULT_PRICES['google/gemini-2.5-flash']);
    // A price, not a placeholder: every rate is a number, and output costs more than input.
    expect(Object.values(flash!).every((rate) => typeof rate === 'number' && rate >= 0)).toBe(true);
    expect(flash!.output).toBeGreaterThan(flash!.input);
  });

  it('has no price for an unknown model, or none', () => {
    expect(priceOf('echo')).toBeUndefined();
    expect(priceOf('openai-compatible/llama3')).toBeUndefined();
    expect(priceOf(undefined)).toBeUndefined();
  });

  it('takes configured prices over the defaults', () => {
    const mine = { input: 1, output: 2, cacheRead: 0, cacheWrite: 1 };
    expect(priceOf('anthropic/claude-sonnet-4-5', { 'anthropic/claude-sonnet-4-5': mine })).toBe(mine);
    expect(priceOf('local/m', { 'local/m': mine })).toBe(mine);
  });

  it('prices each kind of token at its own rate, per million', () => {
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    expect(costOf({ uncachedInput: 1_000_000, cacheWrite: 1_000_000, cacheRead: 1_000_000, output: 1_000_000, reasoning: 0, recorded: true }, price)).toBeCloseTo(22.05, 10);
    expect(costOf({ uncachedInput: 0, cacheWrite: 0, cacheRead: 2_000_000, output: 0, reasoning: 0, recorded: true }, price)).toBeCloseTo(0.6, 10);
  });
});
