import { ProviderError } from '@jp/core';
import type { Provider, ProviderSettings } from '../provider.ts';

/** The OpenAI-compatible chat-completions vendors jp speaks to. */
export type OpenAICompatibleVendor = 'openrouter' | 'ollama';

// Placeholder until this provider is written (issue C).
export function createOpenAICompatibleChatProvider(vendor: OpenAICompatibleVendor, _settings: ProviderSettings = {}): Provider {
  const missing = (): never => {
    throw new ProviderError(vendor, `provider ${vendor} is not implemented yet`, { code: 'not_implemented' });
  };
  return { id: vendor, buildRequest: missing, stream: missing };
}
