import { ProviderError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { describeGoogleError, googleErrorToProviderError } from './google-error.ts';

const context = { apiKeyEnv: 'GEMINI_API_KEY', baseUrl: 'https://gemini.example' };

/** Shaped like the SDK's `ApiError`: the error body as JSON in the message, the HTTP status in `status`. */
function apiError(status: number, message = `m${status}`, grpc = 'STATUS'): Error {
  const error = new Error(JSON.stringify({ error: { code: status, message, status: grpc } }));
  Object.defineProperty(error, 'name', { value: 'ApiError' });
  return Object.assign(error, { status });
}

describe('googleErrorToProviderError', () => {
  it('passes a ProviderError through unchanged', () => {
    const original = new ProviderError('google', 'already mapped', { code: 'stream_incomplete' });
    expect(googleErrorToProviderError(original, context)).toBe(original);
  });

  it('maps HTTP statuses to codes and retryability, keeping the SDK error as cause', () => {
    const cases = [400, 401, 403, 404, 429, 500, 503, 504].map((status) => {
      const cause = apiError(status);
      const mapped = googleErrorToProviderError(cause, context);
      expect(mapped.cause).toBe(cause);
      return [status, mapped.code, mapped.isRetryable, mapped.statusCode];
    });
    expect(cases).toEqual([
      [400, 'bad_request', false, 400],
      [401, 'key_rejected', false, 401],
      [403, 'key_rejected', false, 403],
      [404, 'bad_request', false, 404],
      [429, 'rate_limited', true, 429],
      [500, 'server_error', true, 500],
      [503, 'server_error', true, 503],
      [504, 'server_error', true, 504],
    ]);
  });

  it('names the key variable when a key is rejected and quotes the API’s message', () => {
    const mapped = googleErrorToProviderError(apiError(403, 'API key not valid.', 'PERMISSION_DENIED'), { ...context, apiKeyEnv: 'WORK_GEMINI_KEY' });
    expect(mapped.message).toBe('google rejected the API key (403: PERMISSION_DENIED: API key not valid.); check WORK_GEMINI_KEY');
  });

  it('maps connection failures with their root cause, a body cut inside an event, and aborts', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') });
    expect(googleErrorToProviderError(refused, context)).toMatchObject({
      code: 'connection_error',
      isRetryable: true,
      message: 'connection to google at https://gemini.example failed: connect ECONNREFUSED 127.0.0.1:9',
    });
    expect(googleErrorToProviderError(new Error('Incomplete JSON segment at the end'), context)).toMatchObject({
      code: 'stream_incomplete',
      isRetryable: true,
    });
    expect(googleErrorToProviderError(new DOMException('This operation was aborted', 'AbortError'), context)).toMatchObject({
      code: 'aborted',
      isRetryable: false,
    });
  });

  it('maps anything else to a plain provider_error', () => {
    expect(googleErrorToProviderError(new RangeError('bad index'), context)).toMatchObject({
      code: 'provider_error',
      isRetryable: false,
      message: 'google request failed: bad index',
    });
    expect(googleErrorToProviderError('weird', context).message).toBe('google request failed: weird');
  });
});

describe('describeGoogleError', () => {
  it('reads status and message from the error body, also behind the stream-error prefix', () => {
    expect(describeGoogleError('{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}')).toBe(
      'RESOURCE_EXHAUSTED: Quota exceeded',
    );
    expect(describeGoogleError('got status: 503. {"error":{"code":503,"message":"overloaded"}}')).toBe('overloaded');
    expect(describeGoogleError('plain text {not json')).toBe('plain text {not json');
  });
});
