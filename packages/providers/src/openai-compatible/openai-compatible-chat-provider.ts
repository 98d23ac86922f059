import { ProviderError } from '@jp/core';
import { createOpenAIClient } from '../openai/openai-client.ts';
import { openaiErrorToProviderError, type OpenAIErrorClasses } from '../openai/openai-error.ts';
import type { ChatCompletionCreateParamsStreaming } from '../openai/openai-types.ts';
import type { ConvertedRequest, Provider, ProviderRequest, ProviderSettings, StreamEvent } from '../provider.ts';
import { abortAware } from '../shared/abort-aware.ts';
import { convertToOpenAICompatibleChatRequest } from './convert-to-openai-compatible-chat-request.ts';
import { mapOpenAICompatibleChatStream } from './map-openai-compatible-chat-stream.ts';
import { OPENAI_COMPATIBLE_VENDORS, type OpenAICompatibleVendor } from './openai-compatible-vendor.ts';

export { OPENAI_COMPATIBLE_VENDORS, type OpenAICompatibleVendor } from './openai-compatible-vendor.ts';

/** What the SDK is given when the vendor needs no key (it refuses to run without one; Ollama ignores it). */
const KEYLESS_PLACEHOLDER = 'ollama';

/**
 * An OpenAI-compatible chat-completions vendor through the official `openai` SDK (loaded only when
 * a request is sent): OpenRouter (`https://openrouter.ai/api/v1`, key OPENROUTER_API_KEY) or Ollama
 * (`http://127.0.0.1:11434/v1`, no key). Base URL and key are always explicit; the SDK never retries.
 */
export function createOpenAICompatibleChatProvider(vendor: OpenAICompatibleVendor, settings: ProviderSettings = {}): Provider {
  const defaults = OPENAI_COMPATIBLE_VENDORS[vendor];
  const baseUrl = settings.baseUrl ?? defaults.baseUrl;
  const apiKeyEnv = settings.apiKeyEnv ?? defaults.apiKeyEnv;

  return {
    id: vendor,
    readsContent: true,
    buildRequest(request: ProviderRequest): ConvertedRequest<ChatCompletionCreateParamsStreaming> {
      return convertToOpenAICompatibleChatRequest(request, vendor);
    },
    async *stream(request: ProviderRequest, options: { signal?: AbortSignal } = {}): AsyncIterable<StreamEvent> {
      let apiKey = settings.apiKey;
      if (apiKey === undefined || apiKey === '') {
        if (defaults.apiKeyEnv !== undefined) {
          throw new ProviderError(vendor, `${apiKeyEnv} is not set; export it or set providers.${vendor}.api_key_env`, { code: 'missing_api_key' });
        }
        apiKey = KEYLESS_PLACEHOLDER;
      }
      const { request: body, warnings } = convertToOpenAICompatibleChatRequest(request, vendor);
      for (const message of warnings) yield { type: 'warning', message };

      let classes: OpenAIErrorClasses | undefined;
      try {
        const loaded = await createOpenAIClient({ apiKey, baseUrl });
        classes = loaded.classes;
        const chunks = await loaded.client.chat.completions.create(body, options.signal ? { signal: options.signal } : {});
        for await (const event of mapOpenAICompatibleChatStream(abortAware(chunks, options.signal, vendor), vendor)) yield event;
      } catch (error) {
        throw openaiErrorToProviderError(error, { provider: vendor, apiKeyEnv, baseUrl, classes });
      }
    },
  };
}
