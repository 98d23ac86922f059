import { ProviderError } from '@jp/core';
import type { ConvertedRequest, Provider, ProviderRequest, ProviderSettings, StreamEvent } from '../provider.ts';
import { abortedError } from '../shared/abort-aware.ts';
import { convertToGoogleRequest } from './convert-to-google-request.ts';
import { createGoogleClient } from './create-google-client.ts';
import { googleErrorToProviderError } from './google-error.ts';
import type { GoogleRequest } from './google-types.ts';
import { mapGoogleStream } from './map-google-stream.ts';

export const GOOGLE_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
export const GOOGLE_DEFAULT_API_KEY_ENV = 'GEMINI_API_KEY';
/** The Gemini API version in the request path (`/v1beta/models/…`), pinned rather than left to the SDK. */
export const GOOGLE_API_VERSION = 'v1beta';

/**
 * Gemini through the official `@google/genai` SDK, loaded only when a request is sent.
 *
 * Without a key the SDK falls back to Google application-default credentials, which probe the
 * cloud metadata server; so a missing key is a `missing_api_key` error here, before the SDK is
 * even loaded, and the client is built from explicit settings only (`createGoogleClient`). The SDK
 * never retries (no `retryOptions`) nor resumes a stream (`automaticContinuation: false`);
 * failures become `ProviderError`s and the caller retries.
 */
export function createGoogleProvider(settings: ProviderSettings = {}): Provider {
  const baseUrl = settings.baseUrl ?? GOOGLE_DEFAULT_BASE_URL;
  const apiKeyEnv = settings.apiKeyEnv ?? GOOGLE_DEFAULT_API_KEY_ENV;

  return {
    id: 'google',
    readsContent: true,
    buildRequest(request: ProviderRequest): ConvertedRequest<GoogleRequest> {
      return convertToGoogleRequest(request);
    },
    async *stream(request: ProviderRequest, options: { signal?: AbortSignal } = {}): AsyncIterable<StreamEvent> {
      const apiKey = settings.apiKey;
      if (apiKey === undefined || apiKey === '') {
        throw new ProviderError('google', `${apiKeyEnv} is not set; export it or set providers.google.api_key_env`, {
          code: 'missing_api_key',
        });
      }
      const { request: body, warnings } = convertToGoogleRequest(request);
      for (const message of warnings) yield { type: 'warning', message };

      const { signal } = options;
      try {
        const ai = await createGoogleClient({ apiKey, baseUrl, apiVersion: GOOGLE_API_VERSION });
        const config = { ...body.config, automaticContinuation: false, ...(signal ? { abortSignal: signal } : {}) };
        const chunks = await ai.models.generateContentStream({ ...body, config });
        for await (const event of mapGoogleStream(chunks)) yield event;
      } catch (error) {
        if (signal?.aborted) throw abortedError('google', error);
        throw googleErrorToProviderError(error, { apiKeyEnv, baseUrl });
      }
    },
  };
}
