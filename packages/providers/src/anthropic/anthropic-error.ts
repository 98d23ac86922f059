import { ProviderError } from '@jp/core';
import { abortedError } from '../shared/abort-aware.ts';
import { connectionError, isConnectionFailure } from '../shared/connection-failure.ts';
import { httpStatusError } from '../shared/http-status-error.ts';

/** The fields of the SDK's `APIError` this mapping reads (duck-typed: the SDK is loaded lazily). */
interface SdkErrorLike {
  name?: unknown;
  message?: unknown;
  status?: unknown;
  type?: unknown;
  apiMessage?: unknown;
}

export interface AnthropicErrorContext {
  /** The variable the key came from, named in the rejected-key message. */
  apiKeyEnv: string;
  baseUrl: string;
}

const RETRYABLE_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

/** The SDK's own connection errors (it wraps undici's). */
const CONNECTION_ERRORS = new Set(['APIConnectionError', 'APIConnectionTimeoutError']);

function describe(error: SdkErrorLike): string {
  if (typeof error.apiMessage === 'string' && error.apiMessage !== '') return error.apiMessage;
  return typeof error.message === 'string' ? error.message : String(error);
}

/**
 * Any failure of an Anthropic call → a `ProviderError` with a stable `code`:
 * `key_rejected` (401/403), `rate_limited` (429, retryable), `server_error` (5xx and 529,
 * retryable), `bad_request` (other 4xx), `stream_error` (an `error` event mid-stream; retryable
 * when overloaded), `connection_error` (unreachable, reset or cut connection; retryable),
 * `aborted`; anything else is a plain `provider_error`. A `ProviderError` passes through unchanged.
 */
export function anthropicErrorToProviderError(error: unknown, context: AnthropicErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const sdk = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SdkErrorLike;
  const status = typeof sdk.status === 'number' ? sdk.status : undefined;
  const cause = error;

  if (sdk.name === 'APIUserAbortError' || sdk.name === 'AbortError') return abortedError('anthropic', cause);
  if (status !== undefined) return httpStatusError('anthropic', status, describe(sdk), { apiKeyEnv: context.apiKeyEnv, cause });
  if (typeof sdk.type === 'string') {
    // An `event: error` inside the stream: no HTTP status, only the error type.
    return new ProviderError('anthropic', `anthropic stream error (${sdk.type}): ${describe(sdk)}`, {
      code: 'stream_error',
      isRetryable: RETRYABLE_TYPES.has(sdk.type),
      cause,
    });
  }
  const sdkConnectionError = error instanceof Error && CONNECTION_ERRORS.has(error.name);
  if (sdkConnectionError || isConnectionFailure(error)) return connectionError('anthropic', context.baseUrl, cause);
  return new ProviderError('anthropic', `anthropic request failed: ${describe(sdk)}`, { cause });
}

