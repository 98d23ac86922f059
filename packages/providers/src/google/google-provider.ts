import { ProviderError } from '@jp/core';
import type { Provider, ProviderSettings } from '../provider.ts';

// Placeholder until this provider is written (issue C).
export function createGoogleProvider(_settings: ProviderSettings = {}): Provider {
  const missing = (): never => {
    throw new ProviderError('google', 'provider google is not implemented yet', { code: 'not_implemented' });
  };
  return { id: 'google', buildRequest: missing, stream: missing };
}
