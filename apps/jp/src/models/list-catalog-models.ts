import { SHIPPED_MODELS, type ModelInfo } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';
import { catalogModel } from './model-catalog.ts';
import { readCachedListing } from './model-listing-cache.ts';
import { providerBaseUrl } from './provider-base-url.ts';

/** The providers `jp models` knows: echo has no models to list. */
export const LISTED_PROVIDERS = ['anthropic', 'openai', 'google', 'openrouter', 'ollama'] as const;

/**
 * Every model the catalog knows at `provider`, each as `catalogModel` describes it: the ids the
 * config names, the cached listing's, and the shipped table's, sorted.
 */
export function listCatalogModels(config: Pick<Config, 'providers'>, provider: string, env: NodeJS.ProcessEnv = process.env): ModelInfo[] {
  const ids = new Set<string>(Object.keys(config.providers[provider]?.models ?? {}));
  for (const id of Object.keys(readCachedListing(provider, providerBaseUrl(config, provider), env)?.models ?? {})) ids.add(id);
  for (const row of (SHIPPED_MODELS as Record<string, readonly { id: string }[] | undefined>)[provider] ?? []) ids.add(row.id);
  return [...ids].sort().flatMap((id) => catalogModel(config, provider, id, env) ?? []);
}
