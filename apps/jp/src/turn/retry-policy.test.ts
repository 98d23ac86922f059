import { describe, expect, it } from 'vitest';
import { ProviderError } from '@jp/core';
import { DEFAULT_RETRY_POLICY, isRetryable, retryDelayMs } from './retry-policy.ts';

describe('retry policy', () => {
  it('backs off exponentially with jitter', () => {
    const mid = () => 0.5;
    expect([1, 2, 3].map((attempt) => retryDelayMs(DEFAULT_RETRY_POLICY, attempt, undefined, mid))).toEqual([1000, 2000, 4000]);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, undefined, () => 0)).toBe(800);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, undefined, () => 1)).toBe(1200);
  });

  it("honours the vendor's Retry-After, capped", () => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 2500)).toBe(2500);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 0)).toBe(0);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 3_600_000)).toBe(60_000);
    expect(retryDelayMs({ ...DEFAULT_RETRY_POLICY, baseDelayMs: 50_000 }, 3, undefined, () => 0.5)).toBe(60_000);
  });

  it('retries only retryable provider errors', () => {
    expect(isRetryable(new ProviderError('x', 'slow down', { isRetryable: true, statusCode: 429 }))).toBe(true);
    expect(isRetryable(new ProviderError('x', 'bad key', { statusCode: 401 }))).toBe(false);
    expect(isRetryable(new Error('boom'))).toBe(false);
  });
});
