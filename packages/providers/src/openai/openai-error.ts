import { ProviderError } from '@jp/core';
import { abortedError } from '../shared/abort-aware.ts';
import { connectionError, isConnectionFailure } from '../shared/connection-failure.ts';
import { httpStatusError } from '../shared/http-status-error.ts';

/** The SDK's error classes, passed in by a provider that has loaded the SDK (it is imported lazily). */
export interface OpenAIErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

export interface OpenAIErrorContext {
  /** `openai`, `openrouter`, `ollama`: named in messages and in `ProviderError.provider`. */
  provider: string;
  /** The variable the key came from, named in the rejected-key message (none for a keyless Ollama). */
  apiKeyEnv: string | undefined;
  baseUrl: string;
  classes?: OpenAIErrorClasses | undefined;
}

/** The fields of the SDK's `APIError` this mapping reads. */
interface SdkErrorLike {
  message?: unknown;
  status?: unknown;
  code?: unknown;
  type?: unknown;
  error?: unknown;
}

/** Error codes inside a stream (or a 429 body) that mean "try again later" rather than "this request is wrong". */
const RETRYABLE_CODES = new Set(['server_error', 'internal_error', 'rate_limit_exceeded', 'server_is_overloaded', 'overloaded', 'slow_down', 'timeout']);

/** The body's own message (`error.message`) when there is one, else the SDK's. */
function describe(error: SdkErrorLike): string {
  const body = error.error as { message?: unknown } | undefined;
  if (typeof body?.message === 'string' && body.message !== '') return body.message;
  return typeof error.message === 'string' ? error.message : String(error);
}

/**
 * An error the vendor reported inside an answer (`error` or `response.failed` events, an OpenRouter
 * chunk carrying `error`) → `stream_error`, retryable when its code says the server was at fault
 * (`server_error`, `rate_limit_exceeded`, an HTTP-like 429 or 5xx, …).
 */
export function streamErrorToProviderError(provider: string, code: unknown, message: string, cause?: unknown): ProviderError {
  const retryable = typeof code === 'number' ? code === 429 || code >= 500 : typeof code === 'string' && RETRYABLE_CODES.has(code);
  const label = code === undefined || code === null || code === '' ? '' : ` (${String(code)})`;
  return new ProviderError(provider, `${provider} stream error${label}: ${message}`, { code: 'stream_error', isRetryable: retryable, cause });
}

function isInstance(error: unknown, kind: keyof OpenAIErrorClasses, classes: OpenAIErrorClasses | undefined): boolean {
  if (classes !== undefined) return error instanceof classes[kind];
  // Without the classes, walk the constructor names (the SDK's errors all have `name` "Error").
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== null && proto !== undefined; proto = Object.getPrototypeOf(proto)) {
    if ((proto as { constructor?: { name?: string } }).constructor?.name === kind) return true;
  }
  return false;
}

/**
 * Any failure of an OpenAI-style call → a `ProviderError` with a stable `code`: `key_rejected`
 * (401/403), `quota_exceeded` (429 `insufficient_quota`: waiting does not help), `rate_limited`
 * (other 429s, retryable), `server_error` (5xx, retryable), `bad_request` (other 4xx),
 * `stream_error` (an error reported inside the stream), `connection_error` (unreachable, reset or
 * cut; retryable), `aborted`; anything else is a plain `provider_error`. The SDK error is kept as
 * `cause`, so `retryAfterMs` can read its Retry-After header. A `ProviderError` passes through.
 */
export function openaiErrorToProviderError(error: unknown, context: OpenAIErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const { provider, classes } = context;
  const sdk = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SdkErrorLike;
  const status = typeof sdk.status === 'number' ? sdk.status : undefined;
  const cause = error;

  if (isInstance(error, 'APIUserAbortError', classes) || (error instanceof Error && error.name === 'AbortError')) {
    return abortedError(provider, cause);
  }
  if (status === 429 && (sdk.code === 'insufficient_quota' || sdk.type === 'insufficient_quota')) {
    return new ProviderError(provider, `${provider} quota exceeded (429): ${describe(sdk)}`, { code: 'quota_exceeded', statusCode: status, cause });
  }
  if (status !== undefined) return httpStatusError(provider, status, describe(sdk), { apiKeyEnv: context.apiKeyEnv, cause, code: sdk.code });
  if (isInstance(error, 'APIConnectionError', classes) || isConnectionFailure(error)) return connectionError(provider, context.baseUrl, cause);
  if (isInstance(error, 'APIError', classes)) {
    // No HTTP status: the SDK found an `error` object inside the stream.
    return streamErrorToProviderError(provider, sdk.code ?? sdk.type, describe(sdk), cause);
  }
  return new ProviderError(provider, `${provider} request failed: ${describe(sdk)}`, { cause });
}
