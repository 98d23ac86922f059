import { lookupModel, type ModelInfo } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';
import { configuredModelFacts } from './configured-model-facts.ts';
import { readCachedModel } from './model-listing-cache.ts';
import { providerBaseUrl } from './provider-base-url.ts';

/**
 * What jp knows of `model` at `provider` (RFD 031): `providers.<p>.models` first, then the
 * provider's listing cached by `jp models --refresh`, then jp's shipped table. The one place the
 * app asks; nothing here reaches the network.
 */
export function catalogModel(config: Pick<Config, 'providers'>, provider: string, model: string, env: NodeJS.ProcessEnv = process.env): ModelInfo | undefined {
  return lookupModel(provider, model, {
    configured: configuredModelFacts(config, provider, model),
    listed: readCachedModel(provider, providerBaseUrl(config, provider), model, env),
  });
}
