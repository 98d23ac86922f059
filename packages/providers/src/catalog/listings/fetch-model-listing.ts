import { ProviderError } from '@jp/core';
import { anthropicErrorToProviderError } from '../../anthropic/anthropic-error.ts';
import { createGoogleClient } from '../../google/create-google-client.ts';
import { googleErrorToProviderError } from '../../google/google-error.ts';
import { GOOGLE_API_VERSION } from '../../google/google-provider.ts';
import { createOpenAIClient } from '../../openai/openai-client.ts';
import { openaiErrorToProviderError } from '../../openai/openai-error.ts';
import { connectionError, isConnectionFailure } from '../../shared/connection-failure.ts';
import { httpStatusError } from '../../shared/http-status-error.ts';
import { splitUrlCredentials } from '../../shared/url-credentials.ts';
import type { ModelFacts } from '../model-info.ts';
import { parseAnthropicListing } from './parse-anthropic-listing.ts';
import { googleModelId, parseGoogleListing, type GoogleListedModel } from './parse-google-listing.ts';
import { parseOllamaShow, type OllamaShow } from './parse-ollama-show.ts';
import { parseOpenRouterListing, type OpenRouterListedModel } from './parse-openrouter-listing.ts';

export interface ListingSettings {
  /** Where the provider's API is, in its SDK's convention (the configured `base_url` or the default). */
  baseUrl: string;
  apiKey?: string | undefined;
  apiKeyEnv?: string | undefined;
}

/** A GET or POST of JSON with plain fetch (OpenRouter, Ollama), failures as `ProviderError`s. */
async function getJson(provider: string, url: string, init: RequestInit, settings: ListingSettings): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (isConnectionFailure(error)) throw connectionError(provider, settings.baseUrl, error);
    throw new ProviderError(provider, `${provider} listing failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const text = await response.text();
  if (!response.ok) throw httpStatusError(provider, response.status, text.slice(0, 300), { apiKeyEnv: settings.apiKeyEnv, cause: undefined });
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ProviderError(provider, `${provider} answered its model listing with something that is not JSON`, { cause: error });
  }
}

async function anthropicListing(settings: ListingSettings): Promise<Record<string, ModelFacts>> {
  const models: Record<string, ModelFacts> = {};
  try {
    const { Anthropic } = await import('@anthropic-ai/sdk');
    const url = splitUrlCredentials(settings.baseUrl);
    const client = new Anthropic({ apiKey: settings.apiKey, baseURL: url.baseUrl, defaultHeaders: url.headers, defaultQuery: url.query, maxRetries: 0 });
    for await (const entry of client.models.list({ limit: 1000 })) models[entry.id] = parseAnthropicListing(entry);
  } catch (error) {
    throw anthropicErrorToProviderError(error, { apiKeyEnv: settings.apiKeyEnv ?? 'ANTHROPIC_API_KEY', baseUrl: settings.baseUrl });
  }
  return models;
}

async function openaiListing(settings: ListingSettings): Promise<Record<string, ModelFacts>> {
  const models: Record<string, ModelFacts> = {};
  const context = { provider: 'openai', apiKeyEnv: settings.apiKeyEnv ?? 'OPENAI_API_KEY', baseUrl: settings.baseUrl };
  let loaded: Awaited<ReturnType<typeof createOpenAIClient>> | undefined;
  try {
    loaded = await createOpenAIClient({ apiKey: settings.apiKey ?? '', baseUrl: settings.baseUrl });
    // OpenAI's listing has ids only; the facts come from jp's table.
    for await (const entry of loaded.client.models.list()) models[entry.id] = {};
  } catch (error) {
    throw openaiErrorToProviderError(error, { ...context, classes: loaded?.classes });
  }
  return models;
}

async function googleListing(settings: ListingSettings): Promise<Record<string, ModelFacts>> {
  const models: Record<string, ModelFacts> = {};
  try {
    const ai = await createGoogleClient({ apiKey: settings.apiKey ?? '', baseUrl: settings.baseUrl, apiVersion: GOOGLE_API_VERSION });
    for await (const entry of await ai.models.list({ config: { pageSize: 1000 } })) {
      const listed = entry as GoogleListedModel;
      if (typeof listed.name === 'string') models[googleModelId(listed.name)] = parseGoogleListing(listed);
    }
  } catch (error) {
    throw googleErrorToProviderError(error, { apiKeyEnv: settings.apiKeyEnv ?? 'GEMINI_API_KEY', baseUrl: settings.baseUrl });
  }
  return models;
}

async function openrouterListing(settings: ListingSettings): Promise<Record<string, ModelFacts>> {
  const url = splitUrlCredentials(settings.baseUrl);
  const body = (await getJson('openrouter', `${url.baseUrl.replace(/\/$/, '')}/models`, { headers: { authorization: `Bearer ${settings.apiKey ?? ''}`, ...url.headers } }, settings)) as { data?: unknown };
  const models: Record<string, ModelFacts> = {};
  for (const entry of Array.isArray(body.data) ? body.data : []) {
    const listed = entry as OpenRouterListedModel;
    if (typeof listed?.id === 'string') models[listed.id] = parseOpenRouterListing(listed);
  }
  return models;
}

async function ollamaListing(settings: ListingSettings): Promise<Record<string, ModelFacts>> {
  // Ollama's own API sits beside its OpenAI-compatible /v1.
  const root = splitUrlCredentials(settings.baseUrl).baseUrl.replace(/\/v1\/?$/, '').replace(/\/$/, '');
  const tags = (await getJson('ollama', `${root}/api/tags`, {}, settings)) as { models?: Array<{ name?: unknown; model?: unknown }> };
  const models: Record<string, ModelFacts> = {};
  for (const entry of tags.models ?? []) {
    const name = typeof entry.model === 'string' ? entry.model : entry.name;
    if (typeof name !== 'string') continue;
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: name }) };
    models[name] = parseOllamaShow((await getJson('ollama', `${root}/api/show`, init, settings)) as OllamaShow);
  }
  return models;
}

/**
 * The provider's own model listing, as jp's facts by model id (RFD 031): Anthropic `GET /v1/models`
 * (capabilities), OpenAI `GET /v1/models` (ids), Gemini `models.list`, OpenRouter
 * `GET /api/v1/models`, Ollama `GET /api/tags` and `POST /api/show` per model. Through the given
 * base URL only; failures are `ProviderError`s.
 */
export async function fetchModelListing(provider: string, settings: ListingSettings): Promise<Record<string, ModelFacts>> {
  switch (provider) {
    case 'anthropic':
      return anthropicListing(settings);
    case 'openai':
      return openaiListing(settings);
    case 'google':
      return googleListing(settings);
    case 'openrouter':
      return openrouterListing(settings);
    case 'ollama':
      return ollamaListing(settings);
    default:
      throw new ProviderError(provider, `${provider} has no model listing`, { code: 'not_implemented' });
  }
}
