import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic-write.ts';
import { version } from '../version.ts';
import { makeCacheDir } from './config-paths.ts';
import type { ConfigLayer } from './merge-config.ts';
import { withoutSecrets } from './secret-fields.ts';
import { validatedConfigSetting } from './validated-config-dir.ts';

/*
 * What validating a configuration gave, remembered per user (RFD 034): a layer that passed, and a
 * merged configuration with its defaults applied, each under the SHA-256 of jp's version and the
 * input's JSON. A command whose files and `-c` did not change since a command validated them
 * takes the answer from here and never builds the schema (most of an echo query's zod time).
 *
 * Only inputs without secrets and made of JSON values alone are remembered, so no secret is ever
 * written here and the answer read back equals the one computed. The file is a cache: written
 * atomically without a flush, rebuilt when unreadable, its newest ENTRIES kept.
 */

const ENTRIES = 32;
const FILE = 'validated-config.json';

let loaded: { setting: object; entries: Map<string, unknown> } | undefined;


function isPlainJson(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.values(value).every(isPlainJson);
}

/** The key `input` is remembered under, or `undefined` when it must not be (no cache, a secret, a value JSON does not hold). */
export function validationKey(kind: 'layer' | 'merged', input: ConfigLayer): string | undefined {
  if (validatedConfigSetting().directory === undefined || !isPlainJson(input) || withoutSecrets(input).removed.length > 0) return undefined;
  return createHash('sha256').update(`${version}\0${kind}\0${JSON.stringify(input)}`).digest('hex');
}

function entries(): Map<string, unknown> {
  const setting = validatedConfigSetting();
  if (loaded?.setting === setting) return loaded.entries;
  const directory = setting.directory!;
  loaded = { setting, entries: new Map() };
  try {
    const json = JSON.parse(readFileSync(path.join(directory, FILE), 'utf8')) as unknown;
    if (typeof json === 'object' && json !== null && !Array.isArray(json)) loaded.entries = new Map(Object.entries(json));
  } catch {
    // None yet, or unreadable: validation starts afresh and the file is rewritten.
  }
  return loaded.entries;
}

/** What validating the input under `key` gave before (a copy), or `undefined`. */
export function recallValidation(key: string): unknown {
  const value = entries().get(key);
  return value === undefined ? undefined : structuredClone(value);
}

/** Remembers what validating the input under `key` gave. A failure to write loses only the saving. */
export function rememberValidation(key: string, value: unknown): void {
  const map = entries();
  map.delete(key);
  map.set(key, structuredClone(value));
  for (const old of map.keys()) {
    if (map.size <= ENTRIES) break;
    map.delete(old);
  }
  try {
    const directory = makeCacheDir(validatedConfigSetting().directory!);
    writeFileAtomic(path.join(directory, FILE), JSON.stringify(Object.fromEntries(map)), { flush: false, mode: 0o600 });
  } catch {
    // A read-only or full home: the next command validates again.
  }
}
