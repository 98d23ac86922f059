import { ProviderError } from '@jp/core';
import { APIConnectionError, APIError, APIUserAbortError, RateLimitError } from 'openai';
import { describe, expect, it } from 'vitest';
import { openaiErrorToProviderError, streamErrorToProviderError, type OpenAIErrorContext } from './openai-error.ts';

const context: OpenAIErrorContext = { provider: 'openai', apiKeyEnv: 'OPENAI_API_KEY', baseUrl: 'http://127.0.0.1:1/v1' };
const classes = { APIError, APIConnectionError, APIUserAbortError };

describe('openaiErrorToProviderError', () => {
  it('passes a ProviderError through unchanged', () => {
    const original = new ProviderError('openai', 'x', { code: 'missing_api_key' });
    expect(openaiErrorToProviderError(original, context)).toBe(original);
  });

  it('recognises the SDK’s classes with or without them passed in (constructor names)', () => {
    const connection = new APIConnectionError({ message: 'Connection error.', cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    const abort = new APIUserAbortError();
    for (const given of [classes, undefined]) {
      expect(openaiErrorToProviderError(connection, { ...context, classes: given })).toMatchObject({ code: 'connection_error', isRetryable: true });
      expect(openaiErrorToProviderError(connection, { ...context, classes: given }).message).toBe(
        'connection to openai at http://127.0.0.1:1/v1 failed: connect ECONNREFUSED 127.0.0.1:1',
      );
      expect(openaiErrorToProviderError(abort, { ...context, classes: given })).toMatchObject({ code: 'aborted' });
    }
  });

  it('keeps the SDK error as cause and reads the body’s message', () => {
    const sdkError = new RateLimitError(429, { message: 'Slow down', type: 'requests', code: 'rate_limit_exceeded' }, undefined, new Headers());
    const mapped = openaiErrorToProviderError(sdkError, { ...context, classes });
    expect(mapped).toMatchObject({ code: 'rate_limited', statusCode: 429, isRetryable: true, cause: sdkError });
    expect(mapped.message).toBe('openai rate limit reached (429): Slow down');
  });

  it('maps an API error without a status (an error object inside the stream) to stream_error', () => {
    const inStream = new APIError(undefined, { message: 'Upstream overloaded', code: 'server_error' }, undefined, undefined);
    expect(openaiErrorToProviderError(inStream, { ...context, classes })).toMatchObject({ code: 'stream_error', isRetryable: true });
  });

  it('maps anything else to a plain provider_error', () => {
    expect(openaiErrorToProviderError(new Error('boom'), context)).toMatchObject({ code: 'provider_error', message: 'openai request failed: boom' });
    expect(openaiErrorToProviderError('text', context)).toMatchObject({ code: 'provider_error', message: 'openai request failed: text' });
  });
});

describe('streamErrorToProviderError', () => {
  it('is retryable for server-side codes and HTTP-like 429/5xx numbers only', () => {
    const retryable = (code: unknown) => streamErrorToProviderError('openrouter', code, 'm').isRetryable;
    expect(['server_error', 'rate_limit_exceeded', 429, 500, 503].map(retryable)).toEqual([true, true, true, true, true]);
    expect(['invalid_prompt', 400, null, undefined].map(retryable)).toEqual([false, false, false, false]);
    expect(streamErrorToProviderError('openrouter', null, 'm').message).toBe('openrouter stream error: m');
  });
});
