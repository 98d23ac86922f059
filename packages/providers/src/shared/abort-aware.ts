import { ProviderError } from '@jp/core';

/** The error a call ends with when its signal aborted it, whatever the SDK threw or did. */
export function abortedError(provider: string, cause: unknown): ProviderError {
  return new ProviderError(provider, `the ${provider} request was aborted`, { code: 'aborted', cause });
}

/**
 * Passes the SDK's events through. The Anthropic and OpenAI SDKs end their iteration quietly when
 * the signal aborts, so an iteration that ends with the signal aborted becomes an `aborted` error
 * instead of looking like a cut stream.
 */
export async function* abortAware<T>(events: AsyncIterable<T>, signal: AbortSignal | undefined, provider: string): AsyncGenerator<T> {
  for await (const event of events) yield event;
  if (signal?.aborted) throw abortedError(provider, signal.reason);
}
