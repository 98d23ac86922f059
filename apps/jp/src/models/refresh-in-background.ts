import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { defaultBaseUrl } from '@jp/providers';
import type { Config } from '../config/config-schema.ts';
import { DEFAULT_KEY_ENV } from '../turn/provider-key-env.ts';
import { listingCacheDir } from './model-listing-cache.ts';

/** How old a cached listing may grow before a query on a terminal refreshes it in the background. */
export const LISTING_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Whether a query answered now should refresh `provider`'s listing in the background: its cached
 * listing is missing or older than a week (RFD 031). Never for a base URL the user set (a proxy, a
 * test server: the listing is theirs to ask for), never without the key, never in scripts (no
 * terminal) or with JP_NO_BACKGROUND_REFRESH set.
 */
export function backgroundRefreshDue(
  config: Pick<Config, 'providers'>,
  provider: string,
  options: { terminal: boolean; env?: NodeJS.ProcessEnv; now?: number },
): boolean {
  const env = options.env ?? process.env;
  if (!options.terminal || env.JP_NO_BACKGROUND_REFRESH) return false;
  const settings = config.providers[provider];
  if (defaultBaseUrl(provider) === undefined || settings?.base_url !== undefined || provider === 'ollama') return false;
  const keyEnv = settings?.api_key_env ?? DEFAULT_KEY_ENV[provider];
  if (keyEnv === undefined || !env[keyEnv]) return false;
  try {
    const age = (options.now ?? Date.now()) - statSync(path.join(listingCacheDir(env), `${provider}.jsonl`)).mtimeMs;
    if (age < LISTING_MAX_AGE_MS) return false;
  } catch {
    // No cached listing yet.
  }
  return true;
}

/** Starts `jp models --refresh PROVIDER` detached when `backgroundRefreshDue` says so; the query never waits on it. */
export function refreshListingInBackground(config: Pick<Config, 'providers'>, provider: string, options: { terminal: boolean }): boolean {
  if (!backgroundRefreshDue(config, provider, options)) return false;
  const script = process.argv[1];
  if (script === undefined) return false;
  const child = spawn(process.execPath, [script, '-q', 'models', '--refresh', provider], { detached: true, stdio: 'ignore' });
  child.on('error', () => {});
  child.unref();
  return true;
}
