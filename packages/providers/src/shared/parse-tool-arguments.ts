import { ProviderError } from '@jp/core';

/** A tool call's JSON arguments as an object; empty means `{}`. Anything else is an `invalid_response`. */
export function parseToolArguments(json: string, name: string, provider: string): Record<string, unknown> {
  if (json.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new ProviderError(provider, `${provider} sent invalid JSON arguments for tool ${name}`, { code: 'invalid_response', cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProviderError(provider, `${provider} sent non-object arguments for tool ${name}`, { code: 'invalid_response' });
  }
  return value as Record<string, unknown>;
}
