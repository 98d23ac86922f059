import { ProviderError } from '@jp/core';
import { isContextTooLong } from './context-too-long.ts';

/**
 * The error for an HTTP status a vendor answered with, the same for every provider: 401/403 →
 * `key_rejected` (naming the key's variable), 429 → `rate_limited`, 5xx → `server_error` (both
 * retryable), a refusal for length → `context_too_long` (jp may compact and retry, RFD 027), other
 * 4xx → `bad_request`. `detail` is the vendor's own message; `code` its error code, where it has one.
 */
export function httpStatusError(
  provider: string,
  status: number,
  detail: string,
  options: { apiKeyEnv?: string | undefined; cause: unknown; code?: unknown },
): ProviderError {
  const { cause } = options;
  if (status === 401 || status === 403) {
    const hint = options.apiKeyEnv === undefined ? `set providers.${provider}.api_key_env` : `check ${options.apiKeyEnv}`;
    return new ProviderError(provider, `${provider} rejected the API key (${status}: ${detail}); ${hint}`, { code: 'key_rejected', statusCode: status, cause });
  }
  if (status === 429) {
    return new ProviderError(provider, `${provider} rate limit reached (429): ${detail}`, { code: 'rate_limited', statusCode: status, isRetryable: true, cause });
  }
  if (status >= 500) {
    return new ProviderError(provider, `${provider} server error (${status}): ${detail}`, { code: 'server_error', statusCode: status, isRetryable: true, cause });
  }
  if (isContextTooLong(status, detail, options.code)) {
    return new ProviderError(provider, `${provider}: the conversation is too long for the model (${status}: ${detail})`, { code: 'context_too_long', statusCode: status, cause });
  }
  return new ProviderError(provider, `${provider} refused the request (${status}): ${detail}`, { code: 'bad_request', statusCode: status, cause });
}
