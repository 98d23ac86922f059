import { ProviderError } from '@jp/core';
import { abortedError } from '../shared/abort-aware.ts';
import { connectionError, isConnectionFailure } from '../shared/connection-failure.ts';
import { httpStatusError } from '../shared/http-status-error.ts';

/** The fields of the SDK's `ApiError` this mapping reads (duck-typed: the SDK is loaded lazily). */
interface SdkErrorLike {
  name?: unknown;
  message?: unknown;
  status?: unknown;
}

export interface GoogleErrorContext {
  /** The variable the key came from, named in the rejected-key message. */
  apiKeyEnv: string;
  baseUrl: string;
}

/**
 * The API's own words from an `ApiError`. The SDK puts the whole error body in the message
 * (`{"error":{"code":429,"message":"…","status":"RESOURCE_EXHAUSTED"}}`, prefixed with
 * `got status: 429. ` for an error inside the stream): `RESOURCE_EXHAUSTED: …` when it parses.
 */
export function describeGoogleError(message: string): string {
  const start = message.indexOf('{');
  if (start >= 0) {
    try {
      const body = JSON.parse(message.slice(start)) as { error?: { message?: unknown; status?: unknown } };
      const text = typeof body.error?.message === 'string' ? body.error.message : undefined;
      const status = typeof body.error?.status === 'string' && body.error.status !== '' ? body.error.status : undefined;
      if (text !== undefined && text !== '') return status === undefined ? text : `${status}: ${text}`;
      if (status !== undefined) return status;
    } catch {
      // not JSON: fall through to the message as it is
    }
  }
  return message;
}

function describe(error: SdkErrorLike): string {
  return typeof error.message === 'string' ? describeGoogleError(error.message) : String(error);
}

/**
 * Any failure of a Gemini call → a `ProviderError` with a stable `code`, as for Anthropic:
 * `key_rejected` (401/403), `rate_limited` (429, retryable), `server_error` (5xx, retryable),
 * `bad_request` (other 4xx), `connection_error` (unreachable, reset or cut connection; retryable),
 * `stream_incomplete` (the body stopped inside an event; retryable), `aborted`; anything else is a
 * plain `provider_error`. The SDK error is kept as `cause`. A `ProviderError` passes through.
 */
export function googleErrorToProviderError(error: unknown, context: GoogleErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const sdk = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SdkErrorLike;
  const status = sdk.name === 'ApiError' && typeof sdk.status === 'number' ? sdk.status : undefined;
  const cause = error;

  if (sdk.name === 'AbortError') return abortedError('google', cause);
  if (status !== undefined) return httpStatusError('google', status, describe(sdk), { apiKeyEnv: context.apiKeyEnv, cause });
  if (error instanceof Error && error.message === 'Incomplete JSON segment at the end') {
    return new ProviderError('google', 'the google response stream stopped inside an event (connection cut?)', {
      code: 'stream_incomplete',
      isRetryable: true,
      cause,
    });
  }
  if (isConnectionFailure(error)) return connectionError('google', context.baseUrl, cause);
  return new ProviderError('google', `google request failed: ${describe(sdk)}`, { cause });
}
