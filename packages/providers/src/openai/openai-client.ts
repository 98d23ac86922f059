import type { OpenAI } from 'openai';
import { splitUrlCredentials } from '../shared/url-credentials.ts';
import type { OpenAIErrorClasses } from './openai-error.ts';

/** A client of the official SDK plus its error classes (for `openaiErrorToProviderError`). */
export interface LoadedOpenAIClient {
  client: OpenAI;
  classes: OpenAIErrorClasses;
}

/**
 * Loads the `openai` SDK (only when a request is sent: it is slow to load) and makes a client that
 * depends on nothing but its arguments: the key and base URL are explicit, so OPENAI_API_KEY and
 * OPENAI_BASE_URL cannot change where a request goes or who it bills; organization and project
 * are null, so OPENAI_ORG_ID / OPENAI_PROJECT_ID add no headers (they would also reach OpenRouter
 * and Ollama); the SDK never retries (`maxRetries: 0`: jp retries, with one policy); its logger is
 * off, so OPENAI_LOG cannot print into an answer on stdout.
 */
export async function createOpenAIClient(options: { apiKey: string; baseUrl: string }): Promise<LoadedOpenAIClient> {
  const sdk = await import('openai');
  const { baseUrl, headers, query } = splitUrlCredentials(options.baseUrl);
  const client = new sdk.OpenAI({
    apiKey: options.apiKey,
    baseURL: baseUrl,
    ...(Object.keys(headers).length > 0 ? { defaultHeaders: headers } : {}),
    ...(Object.keys(query).length > 0 ? { defaultQuery: query } : {}),
    organization: null,
    project: null,
    maxRetries: 0,
    logLevel: 'off',
  });
  return { client, classes: { APIError: sdk.APIError, APIConnectionError: sdk.APIConnectionError, APIUserAbortError: sdk.APIUserAbortError } };
}
