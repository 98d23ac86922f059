import { ANTHROPIC_DEFAULT_BASE_URL } from './anthropic/anthropic-provider.ts';
import { GOOGLE_DEFAULT_BASE_URL } from './google/google-provider.ts';
import { OPENAI_COMPATIBLE_VENDORS } from './openai-compatible/openai-compatible-vendor.ts';
import { OPENAI_DEFAULT_BASE_URL } from './openai/openai-provider.ts';

/** Where a provider's requests go unless `providers.<p>.base_url` says otherwise; undefined for `echo`. */
export function defaultBaseUrl(provider: string): string | undefined {
  switch (provider) {
    case 'anthropic':
      return ANTHROPIC_DEFAULT_BASE_URL;
    case 'openai':
      return OPENAI_DEFAULT_BASE_URL;
    case 'google':
      return GOOGLE_DEFAULT_BASE_URL;
    case 'openrouter':
    case 'ollama':
      return OPENAI_COMPATIBLE_VENDORS[provider].baseUrl;
    default:
      return undefined;
  }
}
