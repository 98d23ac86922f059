import { ProviderError } from '@jp/core';
import { hasErrorCode, isConnectionRefused, isLoopbackUrl } from './refused-loopback.ts';

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

/** The host of a base URL, or the URL when it does not parse. */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

/** How to start a local server for the providers people run on their own machine. */
const START_HINTS: Readonly<Record<string, string>> = { ollama: 'start the server (ollama serve)' };

/**
 * The `connection_error` for a vendor that could not be reached or cut the connection. Resets and
 * time-outs are retryable; a refused connection or a port this machine may not reach is not:
 * waiting starts no server and opens no firewall, so jp fails at once and says what to start or set.
 */
export function connectionError(provider: string, baseUrl: string, cause: unknown): ProviderError {
  if (isConnectionRefused(cause)) {
    const start = isLoopbackUrl(baseUrl) ? `${START_HINTS[provider] ?? 'start the server'} or set` : 'check';
    return new ProviderError(
      provider,
      `cannot connect to ${provider} at ${baseUrl} (connection refused); ${start} providers.${provider}.base_url`,
      { code: 'connection_refused', isRetryable: false, cause },
    );
  }
  if (hasErrorCode(cause, ['ENOTFOUND'])) {
    // The name does not resolve: asking again in a second gives the same answer (issue W).
    return new ProviderError(provider, `cannot connect to ${provider}: ${hostOf(baseUrl)} does not resolve (DNS: no such host); check the network, or providers.${provider}.base_url`, {
      code: 'host_not_found',
      isRetryable: false,
      cause,
    });
  }
  if (rootCause(cause) === 'bad port') {
    // fetch never connects to ports the Fetch standard blocks (9, 25, 6000…): no retry can help.
    return new ProviderError(provider, `cannot connect to ${provider} at ${baseUrl}: HTTP clients refuse that port; use another port in providers.${provider}.base_url`, {
      code: 'connection_blocked',
      isRetryable: false,
      cause,
    });
  }
  if (hasErrorCode(cause, ['EACCES', 'EPERM'])) {
    return new ProviderError(provider, `cannot connect to ${provider} at ${baseUrl} (the connection is not permitted on this machine); check providers.${provider}.base_url and any firewall`, {
      code: 'connection_blocked',
      isRetryable: false,
      cause,
    });
  }
  return new ProviderError(provider, `connection to ${provider} at ${baseUrl} failed: ${rootCause(cause)}`, {
    code: 'connection_error',
    isRetryable: true,
    cause,
  });
}
