import { ProviderError } from '@jp/core';
import type { ConvertedRequest, Provider, ProviderRequest, ProviderSettings, StreamEvent } from '../provider.ts';
import { abortAware } from '../shared/abort-aware.ts';
import { convertToOpenAIRequest } from './convert-to-openai-request.ts';
import { mapOpenAIStream } from './map-openai-stream.ts';
import { createOpenAIClient } from './openai-client.ts';
import { openaiErrorToProviderError, type OpenAIErrorClasses } from './openai-error.ts';
import type { OpenAIResponsesRequest } from './openai-types.ts';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const OPENAI_DEFAULT_API_KEY_ENV = 'OPENAI_API_KEY';

/**
 * OpenAI's Responses API through the official SDK, loaded only when a request is sent. The key
 * and base URL (which includes `/v1`) are always explicit; the SDK never retries. Failures become
 * `ProviderError`s (see `openaiErrorToProviderError`) and the caller retries.
 */
export function createOpenAIProvider(settings: ProviderSettings = {}): Provider {
  const baseUrl = settings.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
  const apiKeyEnv = settings.apiKeyEnv ?? OPENAI_DEFAULT_API_KEY_ENV;

  return {
    id: 'openai',
    readsContent: true,
    buildRequest(request: ProviderRequest): ConvertedRequest<OpenAIResponsesRequest> {
      return convertToOpenAIRequest(request);
    },
    async *stream(request: ProviderRequest, options: { signal?: AbortSignal } = {}): AsyncIterable<StreamEvent> {
      const apiKey = settings.apiKey;
      if (apiKey === undefined || apiKey === '') {
        throw new ProviderError('openai', `${apiKeyEnv} is not set; export it or set providers.openai.api_key_env`, { code: 'missing_api_key' });
      }
      const { request: body, warnings } = convertToOpenAIRequest(request);
      for (const message of warnings) yield { type: 'warning', message };

      let classes: OpenAIErrorClasses | undefined;
      try {
        const loaded = await createOpenAIClient({ apiKey, baseUrl });
        classes = loaded.classes;
        const events = await loaded.client.responses.create(body, options.signal ? { signal: options.signal } : {});
        for await (const event of mapOpenAIStream(abortAware(events, options.signal, 'openai'))) yield event;
      } catch (error) {
        throw openaiErrorToProviderError(error, { provider: 'openai', apiKeyEnv, baseUrl, classes });
      }
    },
  };
}
