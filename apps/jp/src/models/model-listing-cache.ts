import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelFacts } from '@jp/providers';
import { makeCacheDir, userCacheDir } from '../config/config-paths.ts';
import { writeFileAtomic } from '../store/atomic-write.ts';

/** One provider's listing as cached: when and from where it was fetched, and each model's facts. */
export interface CachedListing {
  fetchedAt: string;
  baseUrl: string;
  models: Record<string, ModelFacts>;
}

/** The listings' directory under jp's per-user cache. */
const LISTINGS = 'models';

/** `$XDG_CACHE_HOME/jp/models`, else `~/.cache/jp/models`: per user, never in a workspace (RFD 031). */
export function listingCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userCacheDir(env), LISTINGS);
}

function listingFile(provider: string, env: NodeJS.ProcessEnv): string {
  return path.join(listingCacheDir(env), `${provider}.jsonl`);
}

interface Header {
  fetchedAt: string;
  baseUrl: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function readLines(provider: string, env: NodeJS.ProcessEnv): { header: Header; text: string; body: number } | undefined {
  let text: string;
  try {
    text = readFileSync(listingFile(provider, env), 'utf8');
  } catch {
    return undefined;
  }
  const end = text.indexOf('\n');
  const header = parseLine(end === -1 ? text : text.slice(0, end));
  if (!isObject(header) || typeof header.fetchedAt !== 'string' || typeof header.baseUrl !== 'string') return undefined;
  return { header: { fetchedAt: header.fetchedAt, baseUrl: header.baseUrl }, text, body: end + 1 };
}

/**
 * The cached facts of one model, read on the query path. The cache is one line per model after a
 * header line, so a lookup parses the header and that one line, not the whole listing (OpenRouter
 * lists hundreds). A missing, unreadable or malformed cache is no listing; one fetched from
 * another base URL (another server) is not this configuration's.
 */
export function readCachedModel(provider: string, baseUrl: string, model: string, env: NodeJS.ProcessEnv = process.env): { facts: ModelFacts; fetchedAt: string } | undefined {
  const read = readLines(provider, env);
  if (read === undefined || read.header.baseUrl !== baseUrl) return undefined;
  const needle = `\n{"id":${JSON.stringify(model)},`;
  const at = read.text.indexOf(needle, read.body - 1);
  if (at === -1) return undefined;
  const end = read.text.indexOf('\n', at + 1);
  const entry = parseLine(read.text.slice(at + 1, end === -1 ? undefined : end));
  if (!isObject(entry) || !isObject(entry.facts)) return undefined;
  return { facts: entry.facts as ModelFacts, fetchedAt: read.header.fetchedAt };
}

/** The whole cached listing of `provider`, when it came from `baseUrl` (`jp models`); any server's when `baseUrl` is undefined. */
export function readCachedListing(provider: string, baseUrl: string | undefined, env: NodeJS.ProcessEnv = process.env): CachedListing | undefined {
  const read = readLines(provider, env);
  if (read === undefined || (baseUrl !== undefined && read.header.baseUrl !== baseUrl)) return undefined;
  const models: Record<string, ModelFacts> = {};
  for (const line of read.text.slice(read.body).split('\n')) {
    const entry = parseLine(line);
    if (isObject(entry) && typeof entry.id === 'string' && isObject(entry.facts)) models[entry.id] = entry.facts as ModelFacts;
  }
  return { ...read.header, models };
}

/** Replaces the cached listing of `provider` in one atomic write: a header line, then a line per model. */
export async function writeCachedListing(provider: string, listing: CachedListing, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = listingFile(provider, env);
  makeCacheDir(userCacheDir(env), [LISTINGS]);
  const lines = [JSON.stringify({ fetchedAt: listing.fetchedAt, baseUrl: listing.baseUrl }), ...Object.entries(listing.models).map(([id, facts]) => JSON.stringify({ id, facts }))];
  writeFileAtomic(file, `${lines.join('\n')}\n`, { flush: false });
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
    if (!name.endsWith('.jsonl')) continue;
    const provider = name.slice(0, -'.jsonl'.length);
    const listing = readCachedListing(provider, undefined, env);
    if (listing !== undefined) ids[provider] = Object.keys(listing.models);
  }
  return ids;
}
