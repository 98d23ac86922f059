import { splitUrlCredentials } from '../shared/url-credentials.ts';
import { ProviderError } from '@jp/core';
import type { ConvertedRequest, Provider, ProviderRequest, ProviderSettings, StreamEvent } from '../provider.ts';
import { abortAware } from '../shared/abort-aware.ts';
import { anthropicErrorToProviderError } from './anthropic-error.ts';
import type { MessageCreateParamsStreaming } from './anthropic-types.ts';
import { convertToAnthropicRequest, THINKING_BINDING_BETA } from './convert-to-anthropic-request.ts';
import { mapAnthropicStream } from './map-anthropic-stream.ts';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_API_KEY_ENV = 'ANTHROPIC_API_KEY';

/**
 * Anthropic through the official SDK, loaded only when a request is sent (it is slow to load).
 * The key and the base URL are always passed explicitly, so neither ANTHROPIC_API_KEY,
 * ANTHROPIC_BASE_URL nor an SDK profile can change where a request goes or who it bills. The SDK
 * never retries (`maxRetries: 0`); failures become `ProviderError`s and the caller retries.
 */
export function createAnthropicProvider(settings: ProviderSettings = {}): Provider {
  const baseUrl = settings.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL;
  const apiKeyEnv = settings.apiKeyEnv ?? ANTHROPIC_DEFAULT_API_KEY_ENV;

  return {
    id: 'anthropic',
    readsContent: true,
    buildRequest(request: ProviderRequest): ConvertedRequest<MessageCreateParamsStreaming> {
      return convertToAnthropicRequest(request, { cacheTtl: settings.cacheTtl });
    },
    async *stream(request: ProviderRequest, options: { signal?: AbortSignal } = {}): AsyncIterable<StreamEvent> {
      const apiKey = settings.apiKey;
      if (apiKey === undefined || apiKey === '') {
        throw new ProviderError('anthropic', `${apiKeyEnv} is not set; export it or set providers.anthropic.api_key_env`, {
          code: 'missing_api_key',
        });
      }
      const { request: body, warnings } = convertToAnthropicRequest(request, { cacheTtl: settings.cacheTtl });
      for (const message of warnings) yield { type: 'warning', message };

      const context = { apiKeyEnv, baseUrl };
      try {
        const { Anthropic } = await import('@anthropic-ai/sdk');
        const url = splitUrlCredentials(baseUrl);
        const client = new Anthropic({ apiKey, baseURL: url.baseUrl, defaultHeaders: url.headers, defaultQuery: url.query, maxRetries: 0 });
        const binding = (body.thinking as { block_binding?: unknown } | undefined)?.block_binding !== undefined;
        const events = await client.messages.create(body, {
          ...(options.signal ? { signal: options.signal } : {}),
          ...(binding ? { headers: { 'anthropic-beta': THINKING_BINDING_BETA } } : {}),
        });
        for await (const event of mapAnthropicStream(abortAware(events, options.signal, 'anthropic'))) yield event;
      } catch (error) {
        throw anthropicErrorToProviderError(error, context);
      }
    },
  };
}
