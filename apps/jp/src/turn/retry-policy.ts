import { ProviderError } from '@jp/core';

/** How retries of a failed provider call are spaced. */
export interface RetryPolicy {
  /** Retries after the first attempt (`assistant.request.max_retries`, default 3). */
  maxRetries: number;
  /** First backoff; doubled for each further retry (ms). */
  baseDelayMs: number;
  /** No single wait is longer than this, whatever the vendor's Retry-After says (ms). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000 };

/**
 * The wait before retry number `attempt` (1-based): the vendor's Retry-After when it sent one,
 * else exponential backoff with ±20 % jitter, never above `maxDelayMs`.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfter: number | undefined, random: () => number = Math.random): number {
  if (retryAfter !== undefined) return Math.min(policy.maxDelayMs, Math.max(0, retryAfter));
  const exponential = policy.baseDelayMs * 2 ** (attempt - 1);
  const jitter = 0.8 + 0.4 * random();
  return Math.min(policy.maxDelayMs, Math.round(exponential * jitter));
}

/** Whether an error may be retried: a retryable provider error (429, 5xx, connection trouble). */
export function isRetryable(error: unknown): error is ProviderError {
  return error instanceof ProviderError && error.isRetryable;
}
