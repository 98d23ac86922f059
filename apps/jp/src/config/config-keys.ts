import * as z from 'zod';
import { closest, distance } from 'fastest-levenshtein';
import { ConfigSchema } from './config-schema.ts';
import { formatKey } from './format-key.ts';

/*
 * The keys of jp's configuration, read from the schema itself (through zod's JSON Schema, which
 * keeps types, enums and defaults): `docs/config.md`, `jp config get` and the "did you mean" of an
 * unknown key all come from here, so none of them can drift from what jp accepts.
 */

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  default?: unknown;
  pattern?: string;
  format?: string;
}

/** One key: its path (`<server>` where a table takes any name), its type in words, its default. */
export interface ConfigKey {
  path: string[];
  type: string;
  default?: unknown;
}

/** What a table of any names holds, by the table's key: `providers.<provider>`, `mcp.<server>`. */
const PLACEHOLDERS: Record<string, string> = {
  providers: '<provider>',
  models: '<model>',
  prices: '<model>',
  mcp: '<server>',
  tools: '<tool>',
  env: '<NAME>',
  env_from: '<NAME>',
};

let cached: JsonSchema | undefined;
function rootSchema(): JsonSchema {
  cached ??= z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return cached;
}

const isTableOfKeys = (node: JsonSchema): boolean => node.properties !== undefined;
/** A table whose keys are names the user picks, holding tables of known keys (`mcp.<server>`). */
const isTableOfTables = (node: JsonSchema): node is JsonSchema & { additionalProperties: JsonSchema } =>
  node.properties === undefined && typeof node.additionalProperties === 'object' && node.additionalProperties.properties !== undefined;

/** A value's type in a few words: `integer`, `"ask" | "on" | "off"`, `array of strings`, `table of strings`. */
function typeWords(node: JsonSchema): string {
  if (node.enum !== undefined) return node.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (node.anyOf !== undefined) return node.anyOf.map(typeWords).join(', or ');
  const type = Array.isArray(node.type) ? node.type.join(' | ') : node.type;
  if (type === 'array') return node.items === undefined ? 'array' : `array of ${plural(typeWords(node.items))}`;
  if (type === 'object') {
    if (node.properties !== undefined) return `{ ${Object.keys(node.properties).join(', ')} }`;
    const inner = typeof node.additionalProperties === 'object' && node.additionalProperties.type !== undefined ? typeWords(node.additionalProperties) : undefined;
    return inner === undefined ? 'table' : `table of ${plural(inner)}`;
  }
  if (type === 'string' && node.format === 'uri') return 'URL';
  return type ?? 'any value';
}

function plural(words: string): string {
  return /^(string|integer|number|boolean)$/.test(words) ? `${words}s` : words;
}

/** Every key of the configuration, in the schema's order. */
export function configKeys(): ConfigKey[] {
  const keys: ConfigKey[] = [];
  const walk = (node: JsonSchema, at: string[]): void => {
    if (isTableOfKeys(node)) {
      for (const [name, inner] of Object.entries(node.properties!)) walk(inner, [...at, name]);
      return;
    }
    if (isTableOfTables(node)) {
      walk(node.additionalProperties, [...at, PLACEHOLDERS[at.at(-1) ?? ''] ?? '<name>']);
      return;
    }
    keys.push({ path: at, type: typeWords(node), ...(node.default === undefined ? {} : { default: node.default }) });
  };
  walk(rootSchema(), []);
  return keys;
}

/** A key as docs write it: `providers.<provider>.base_url`. */
export function keyPattern(path: readonly string[]): string {
  return path.map((segment) => (/^<.+>$/.test(segment) ? segment : formatKey([segment]))).join('.');
}

/** The schema at a key, `undefined` when jp knows no such key (a name picked by the user matches any). */
function schemaAt(path: readonly PropertyKey[]): JsonSchema | undefined {
  let node: JsonSchema | undefined = rootSchema();
  for (const segment of path) {
    if (node === undefined || typeof segment !== 'string') return undefined;
    if (node.properties !== undefined) node = node.properties[segment];
    else if (typeof node.additionalProperties === 'object') node = node.additionalProperties;
    else return undefined;
  }
  return node;
}

/** Whether jp knows this key: a value, or a table of values. */
export function isKnownKey(path: readonly string[]): boolean {
  return schemaAt(path) !== undefined;
}

/**
 * The known key nearest to an unknown one, as a full dotted key, or `undefined` when none is near
 * (more than a third of the word would have to change). Looked for among the unknown key's
 * siblings first, then among every key.
 */
export function nearestKey(path: readonly PropertyKey[]): string | undefined {
  const strings = path.map(String);
  const parent = strings.slice(0, -1);
  const word = strings.at(-1) ?? '';
  const near = (candidate: string, typed: string) => distance(candidate, typed) <= Math.max(1, Math.floor(typed.length / 3));
  const siblings = Object.keys(schemaAt(parent)?.properties ?? {});
  if (siblings.length > 0) {
    const best = closest(word, siblings);
    if (near(best, word)) return formatKey([...parent, best]);
  }
  // A misspelt table (`asistant.model`): compared as patterns, the user's names put back after.
  const typed = patternOf(strings);
  const all = configKeys().map((key) => keyPattern(key.path));
  const best = closest(keyPattern(typed), all);
  if (!near(best, keyPattern(typed))) return undefined;
  const match = configKeys().find((key) => keyPattern(key.path) === best)!;
  return formatKey(match.path.map((segment, i) => (/^<.+>$/.test(segment) && strings[i] !== undefined ? strings[i] : segment)));
}

/** The typed key with each name the user picks (a server's, a provider's) as its placeholder. */
function patternOf(path: readonly string[]): string[] {
  let node: JsonSchema | undefined = rootSchema();
  return path.map((segment, i) => {
    if (node === undefined) return segment;
    if (node.properties !== undefined) {
      node = node.properties[segment];
      return segment;
    }
    if (typeof node.additionalProperties === 'object') {
      node = node.additionalProperties;
      return PLACEHOLDERS[path[i - 1] ?? ''] ?? '<name>';
    }
    node = undefined;
    return segment;
  });
}
