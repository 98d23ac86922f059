import { ProviderError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after.ts';

const withHeaders = (headers: Record<string, string>) =>
  new ProviderError('anthropic', 'rate limited', { cause: Object.assign(new Error('429'), { headers: new Headers(headers) }) });

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after seconds, and an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(withHeaders({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(withHeaders({ 'retry-after': '7' }))).toBe(7000);
    expect(retryAfterMs(withHeaders({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000);
  });

  it('gives undefined without a usable hint', () => {
    expect(retryAfterMs(withHeaders({}))).toBeUndefined();
    expect(retryAfterMs(withHeaders({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new ProviderError('anthropic', 'no cause'))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
