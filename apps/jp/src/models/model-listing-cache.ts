import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ModelFacts } from '@jp/providers';
import { writeFileAtomic } from '../store/atomic-write.ts';

/** One provider's listing as cached: when and from where it was fetched, and each model's facts. */
export interface CachedListing {
  fetchedAt: string;
  baseUrl: string;
  models: Record<string, ModelFacts>;
}

/** `$XDG_CACHE_HOME/jp/models`, else `~/.cache/jp/models`: per user, never in a workspace (RFD 031). */
export function listingCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(base, 'jp', 'models');
}

function listingFile(provider: string, env: NodeJS.ProcessEnv): string {
  return path.join(listingCacheDir(env), `${provider}.json`);
}

function isListing(value: unknown): value is CachedListing {
  if (typeof value !== 'object' || value === null) return false;
  const listing = value as Partial<CachedListing>;
  return typeof listing.fetchedAt === 'string' && typeof listing.baseUrl === 'string' && typeof listing.models === 'object' && listing.models !== null;
}

/**
 * The cached listing of `provider`, read synchronously on the query path (one small file); a
 * missing, unreadable or malformed cache is no listing. A listing fetched from another base URL
 * (another server) is not this configuration's.
 */
export function readCachedListing(provider: string, baseUrl: string, env: NodeJS.ProcessEnv = process.env): CachedListing | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(listingFile(provider, env), 'utf8'));
  } catch {
    return undefined;
  }
  if (!isListing(parsed) || parsed.baseUrl !== baseUrl) return undefined;
  return parsed;
}

/** Replaces the cached listing of `provider` in one atomic write. */
export async function writeCachedListing(provider: string, listing: CachedListing, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = listingFile(provider, env);
  await fs.mkdir(path.dirname(file), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(listing)}\n`, { flush: false });
}

/** The model ids of every cached listing, by provider, whatever server they came from (for completion). */
export function readCachedListingIds(env: NodeJS.ProcessEnv = process.env): Record<string, string[]> {
  const ids: Record<string, string[]> = {};
  let names: string[];
  try {
    names = readdirSync(listingCacheDir(env));
  } catch {
    return ids;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    try {
      const parsed: unknown = JSON.parse(readFileSync(path.join(listingCacheDir(env), name), 'utf8'));
      if (isListing(parsed)) ids[name.slice(0, -'.json'.length)] = Object.keys(parsed.models);
    } catch {
      continue;
    }
  }
  return ids;
}
