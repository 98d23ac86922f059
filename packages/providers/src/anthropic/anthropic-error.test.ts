import { ProviderError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { anthropicErrorToProviderError } from './anthropic-error.ts';

const context = { apiKeyEnv: 'ANTHROPIC_API_KEY', baseUrl: 'https://api.example' };

/** Shaped like the SDK's errors, which the mapping reads by duck typing. */
function sdkError(name: string, fields: Record<string, unknown>, message = 'boom'): Error {
  const error = new Error(message);
  Object.defineProperty(error, 'name', { value: name });
  return Object.assign(error, fields);
}

describe('anthropicErrorToProviderError', () => {
  it('passes a ProviderError through unchanged', () => {
    const original = new ProviderError('anthropic', 'already mapped', { code: 'stream_incomplete' });
    expect(anthropicErrorToProviderError(original, context)).toBe(original);
  });

  it('maps HTTP statuses to codes and retryability, keeping the SDK error as cause', () => {
    const cases = [401, 403, 404, 413, 429, 500, 503, 529].map((status) => {
      const cause = sdkError('APIError', { status, apiMessage: `m${status}` });
      const mapped = anthropicErrorToProviderError(cause, context);
      expect(mapped.cause).toBe(cause);
      return [status, mapped.code, mapped.isRetryable, mapped.statusCode];
    });
    expect(cases).toEqual([
      [401, 'key_rejected', false, 401],
      [403, 'key_rejected', false, 403],
      [404, 'bad_request', false, 404],
      // A body too large for the endpoint: compacting makes room (RFD 027).
      [413, 'context_too_long', false, 413],
      [429, 'rate_limited', true, 429],
      [500, 'server_error', true, 500],
      [503, 'server_error', true, 503],
      [529, 'server_error', true, 529],
    ]);
  });

  it('names the key variable it was given when a key is rejected', () => {
    const mapped = anthropicErrorToProviderError(sdkError('AuthenticationError', { status: 401, apiMessage: 'invalid x-api-key' }), {
      ...context,
      apiKeyEnv: 'WORK_CLAUDE_KEY',
    });
    expect(mapped.message).toBe('anthropic rejected the API key (401: invalid x-api-key); check WORK_CLAUDE_KEY');
  });

  it('maps stream error events by type: overloaded is retryable, invalid_request is not', () => {
    expect(anthropicErrorToProviderError(sdkError('APIError', { type: 'overloaded_error' }), context)).toMatchObject({
      code: 'stream_error',
      isRetryable: true,
    });
    expect(anthropicErrorToProviderError(sdkError('APIError', { type: 'invalid_request_error' }), context)).toMatchObject({
      code: 'stream_error',
      isRetryable: false,
    });
  });

  it('maps connection failures (with their root cause) as retryable, aborts as aborted, and the rest as provider_error', () => {
    const timeout = sdkError('APIConnectionTimeoutError', {}, 'Request timed out.');
    expect(anthropicErrorToProviderError(timeout, context)).toMatchObject({
      code: 'connection_error',
      isRetryable: true,
      message: 'connection to anthropic at https://api.example failed: Request timed out.',
    });
    expect(anthropicErrorToProviderError(sdkError('APIUserAbortError', {}), context)).toMatchObject({ code: 'aborted', isRetryable: false });
    const bug = anthropicErrorToProviderError(new RangeError('bad index'), context);
    expect(bug).toMatchObject({ code: 'provider_error', isRetryable: false, message: 'anthropic request failed: bad index' });
    expect(anthropicErrorToProviderError('weird', context).message).toBe('anthropic request failed: weird');
  });
});
