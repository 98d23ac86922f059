import { ProviderError, UsageError } from '@jp/core';
import { createProvider, parseModelId, type Provider } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';
import { DEFAULT_KEY_ENV } from './provider-key-env.ts';

/**
 * The provider and model for a query. The key is read from the environment here and passed to
 * the SDK explicitly; a missing key fails before anything is resolved or written (exit 3).
 */
export function selectProvider(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
  options: { keyOptional?: boolean } = {},
): { provider: Provider; model: string } {
  const modelId = config.assistant.model;
  if (modelId === undefined) {
    throw new UsageError('no model configured: pass -m/--model (e.g. -m echo) or set assistant.model in .jp/config.toml', {
      code: 'no_model',
    });
  }
  const { provider: name, model } = parseModelId(modelId);
  const settings = config.providers[name] ?? {};
  const keyEnv = settings.api_key_env ?? DEFAULT_KEY_ENV[name];
  let apiKey: string | undefined;
  if (keyEnv !== undefined) {
    apiKey = env[keyEnv];
    if ((apiKey === undefined || apiKey === '') && !options.keyOptional) {
      throw new ProviderError(name, `${keyEnv} is not set; export it with your ${name} API key (or name another variable in providers.${name}.api_key_env)`, {
        code: 'missing_api_key',
      });
    }
  }
  return { provider: createProvider(name, { apiKey, apiKeyEnv: keyEnv, baseUrl: settings.base_url, cacheTtl: settings.cache_ttl }), model };
}
