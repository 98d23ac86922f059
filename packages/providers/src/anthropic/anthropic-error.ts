import { ProviderError } from '@jp/core';
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

  if (sdk.name === 'APIUserAbortError' || sdk.name === 'AbortError') {
    return new ProviderError('anthropic', 'the anthropic request was aborted', { code: 'aborted', cause });
  }
  if (status !== undefined) return httpStatusError('anthropic', status, describe(sdk), { apiKeyEnv: context.apiKeyEnv, cause });
  if (typeof sdk.type === 'string') {
    // An `event: error` inside the stream: no HTTP status, only the error type.
    return new ProviderError('anthropic', `anthropic stream error (${sdk.type}): ${describe(sdk)}`, {
      code: 'stream_error',
      isRetryable: RETRYABLE_TYPES.has(sdk.type),
      cause,
    });
  }
  if (isConnectionFailure(error)) {
    return new ProviderError('anthropic', `connection to anthropic at ${context.baseUrl} failed: ${rootCause(error)}`, {
      code: 'connection_error',
      isRetryable: true,
      cause,
    });
  }
  return new ProviderError('anthropic', `anthropic request failed: ${describe(sdk)}`, { cause });
}

const CONNECTION_ERRORS = new Set(['APIConnectionError', 'APIConnectionTimeoutError']);

/** The SDK's connection errors, and undici's when the socket drops mid-body (`TypeError: terminated`). */
function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (CONNECTION_ERRORS.has(error.name)) return true;
  return error.name === 'TypeError' && (error.message === 'terminated' || error.message === 'fetch failed');
}

/** The innermost message: `connect ECONNREFUSED 127.0.0.1:9`, `other side closed`, `Request timed out.` */
function rootCause(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5; depth += 1) {
    const next: unknown = (current as { cause?: unknown }).cause;
    if (!(next instanceof Error)) break;
    current = next;
  }
  return current instanceof Error ? current.message : String(current);
}
