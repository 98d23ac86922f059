import { describe, expect, it } from 'vitest';
import { costOf, priceOf } from './model-prices.ts';

describe('model prices', () => {
  it('finds a model among the prices the command looked up, and nothing else', () => {
    const mine = { input: 1, output: 2, cacheRead: 0, cacheWrite: 1 };
    expect(priceOf('local/m', { 'local/m': mine })).toBe(mine);
    expect(priceOf('echo', { 'local/m': mine })).toBeUndefined();
    expect(priceOf(undefined, { 'local/m': mine })).toBeUndefined();
  });

  it('prices each kind of token at its own rate, per million', () => {
    const price = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    expect(costOf({ uncachedInput: 1_000_000, cacheWrite: 1_000_000, cacheRead: 1_000_000, output: 1_000_000, reasoning: 0, recorded: true }, price)).toBeCloseTo(22.05, 10);
    expect(costOf({ uncachedInput: 0, cacheWrite: 0, cacheRead: 2_000_000, output: 0, reasoning: 0, recorded: true }, price)).toBeCloseTo(0.6, 10);
  });
});
