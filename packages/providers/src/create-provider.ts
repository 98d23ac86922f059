import { ProviderError } from '@jp/core';
import { createAnthropicProvider } from './anthropic/anthropic-provider.ts';
import { createEchoProvider } from './echo/echo-provider.ts';
import { createGoogleProvider } from './google/google-provider.ts';
import { createOpenAIProvider } from './openai/openai-provider.ts';
import { createOpenAICompatibleChatProvider } from './openai-compatible/openai-compatible-chat-provider.ts';
import type { ProviderId } from '@jp/core';
import type { Provider, ProviderSettings } from './provider.ts';

/** Providers that can be created today; the others are known names awaiting an implementation. */
export const IMPLEMENTED_PROVIDERS = ['anthropic', 'echo', 'google', 'ollama', 'openai', 'openrouter'] as const satisfies readonly ProviderId[];

/**
 * The provider for a parsed model id. Cheap: vendor SDKs are imported only when a request is
 * streamed. A known but unimplemented provider is a `ProviderError` (`not_implemented`, exit 3).
 */
export function createProvider(id: ProviderId, settings: ProviderSettings = {}): Provider {
  switch (id) {
    case 'echo':
      return createEchoProvider();
    case 'anthropic':
      return createAnthropicProvider(settings);
    case 'openai':
      return createOpenAIProvider(settings);
    case 'google':
      return createGoogleProvider(settings);
    case 'openrouter':
    case 'ollama':
      return createOpenAICompatibleChatProvider(id, settings);
    default:
      throw new ProviderError(id, `provider ${id} is not implemented yet; implemented: ${IMPLEMENTED_PROVIDERS.join(', ')}`, {
        code: 'not_implemented',
      });
  }
}
