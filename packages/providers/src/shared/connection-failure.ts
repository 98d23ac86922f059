import { ProviderError } from '@jp/core';

/** undici's failures under every SDK: unreachable (`fetch failed`) or the socket dropping mid-body (`terminated`). */
export function isConnectionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'TypeError' && (error.message === 'terminated' || error.message === 'fetch failed');
}

/** The innermost message: `connect ECONNREFUSED 127.0.0.1:9`, `other side closed`, `Request timed out.` */
export function rootCause(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5; depth += 1) {
    const next: unknown = (current as { cause?: unknown }).cause;
    if (!(next instanceof Error)) break;
    current = next;
  }
  return current instanceof Error ? current.message : String(current);
}

/** The retryable `connection_error` for a vendor that could not be reached or cut the connection. */
export function connectionError(provider: string, baseUrl: string, cause: unknown): ProviderError {
  return new ProviderError(provider, `connection to ${provider} at ${baseUrl} failed: ${rootCause(cause)}`, {
    code: 'connection_error',
    isRetryable: true,
    cause,
  });
}
