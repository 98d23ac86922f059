import { ProviderError } from '@jp/core';
import type { Provider, ProviderSettings } from '../provider.ts';

// Placeholder until this provider is written (issue C).
export function createOpenAIProvider(_settings: ProviderSettings = {}): Provider {
  const missing = (): never => {
    throw new ProviderError('openai', 'provider openai is not implemented yet', { code: 'not_implemented' });
  };
  return { id: 'openai', buildRequest: missing, stream: missing };
}
