import { ProviderError } from '@jp/core';

/**
 * Passes the SDK's events through; the OpenAI SDK ends its iteration quietly when the signal
 * aborts, so an iteration that ends with the signal aborted becomes an `aborted` error instead of
 * looking like a cut stream.
 */
export async function* abortAware<T>(events: AsyncIterable<T>, signal: AbortSignal | undefined, provider: string): AsyncGenerator<T> {
  for await (const event of events) yield event;
  if (signal?.aborted) throw new ProviderError(provider, `the ${provider} request was aborted`, { code: 'aborted', cause: signal.reason });
}
