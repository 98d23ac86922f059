import { fetchModelListing } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';
import { DEFAULT_KEY_ENV } from '../turn/provider-key-env.ts';
import { writeCachedListing } from './model-listing-cache.ts';
import { providerBaseUrl } from './provider-base-url.ts';

export interface RefreshOutcome {
  provider: string;
  /** How many models the listing had; undefined when it was not fetched. */
  models?: number;
  /** Why it was not fetched or failed. */
  skipped?: string;
  error?: unknown;
}

/** The key variable of `provider` and its value, as `selectProvider` reads them. */
function keyOf(config: Pick<Config, 'providers'>, provider: string, env: NodeJS.ProcessEnv): { keyEnv?: string; key?: string } {
  const keyEnv = config.providers[provider]?.api_key_env ?? DEFAULT_KEY_ENV[provider];
  return keyEnv === undefined ? {} : { keyEnv, key: env[keyEnv] };
}

/**
 * Fetches the listings of `providers` through their configured base URLs and caches each with its
 * date (RFD 031). A provider without its key set is skipped, and so is Ollama unless configured
 * or named (`named`): a listing is only fetched from a server the user set up.
 */
export async function refreshListings(
  config: Pick<Config, 'providers'>,
  providers: readonly string[],
  named: boolean,
  env: NodeJS.ProcessEnv = process.env,
  now: () => Date = () => new Date(),
): Promise<RefreshOutcome[]> {
  return Promise.all(
    providers.map(async (provider): Promise<RefreshOutcome> => {
      const { keyEnv, key } = keyOf(config, provider, env);
      if (keyEnv !== undefined && (key === undefined || key === '')) return { provider, skipped: `${keyEnv} is not set` };
      if (provider === 'ollama' && !named && config.providers.ollama === undefined) return { provider, skipped: 'no [providers.ollama] configured' };
      const baseUrl = providerBaseUrl(config, provider);
      try {
        const models = await fetchModelListing(provider, { baseUrl, apiKey: key, apiKeyEnv: keyEnv });
        await writeCachedListing(provider, { fetchedAt: now().toISOString(), baseUrl, models }, env);
        return { provider, models: Object.keys(models).length };
      } catch (error) {
        return { provider, error };
      }
    }),
  );
}
