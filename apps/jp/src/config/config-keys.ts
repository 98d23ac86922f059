import type * as z from 'zod';
import { closest, distance } from 'fastest-levenshtein';
import { configSchema } from './config-schema.ts';
import { formatKey } from './format-key.ts';

/*
 * The keys of jp's configuration, read from the schema itself: `jp config get`, the "did you
 * mean" of an unknown key and docs/config.md (with `config-reference.ts`) all come from here, so
 * none of them can drift from what jp accepts. Only names are walked here, through zod's own
 * definitions; types and defaults, for the docs, come from zod's JSON Schema there.
 */

/** A table of known keys, a table of names the user picks (`mcp.<server>`), or a value. */
type Node = { kind: 'keys'; keys: Record<string, Node> } | { kind: 'names'; of: Node } | { kind: 'value' };

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

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; shape?: Record<string, z.ZodType>; valueType?: z.ZodType; options?: z.ZodType[] };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function nodeOf(schema: z.ZodType): Node {
  const def = defOf(schema);
  if (def.innerType !== undefined) return nodeOf(def.innerType);
  if (def.type === 'pipe' && def.in !== undefined) return nodeOf(def.in);
  if (def.type === 'object' && def.shape !== undefined) {
    return { kind: 'keys', keys: Object.fromEntries(Object.entries(def.shape).map(([key, inner]) => [key, nodeOf(inner)])) };
  }
  if (def.type === 'record' && def.valueType !== undefined) return { kind: 'names', of: nodeOf(def.valueType) };
  return { kind: 'value' };
}

let cached: Node | undefined;
const root = (): Node => (cached ??= nodeOf(configSchema() as unknown as z.ZodType));

/** Every key of the configuration, in the schema's order, with `<server>` where a table takes any name. */
export function configKeyPaths(): string[][] {
  const paths: string[][] = [];
  const walk = (node: Node, at: string[]): void => {
    if (node.kind === 'keys') for (const [name, inner] of Object.entries(node.keys)) walk(inner, [...at, name]);
    // A table of values (`env`, `parameters`) is one key in docs: its entries are the user's.
    else if (node.kind === 'names' && node.of.kind !== 'value') walk(node.of, [...at, PLACEHOLDERS[at.at(-1) ?? ''] ?? '<name>']);
    else paths.push(at);
  };
  walk(root(), []);
  return paths;
}

/** A key as docs write it: `providers.<provider>.base_url`. */
export function keyPattern(path: readonly string[]): string {
  return path.map((segment) => (/^<.+>$/.test(segment) ? segment : formatKey([segment]))).join('.');
}

/** The node at a key, `undefined` when jp knows no such key (a name picked by the user matches any). */
function nodeAt(path: readonly PropertyKey[]): Node | undefined {
  let node: Node | undefined = root();
  for (const segment of path) {
    if (node === undefined || typeof segment !== 'string') return undefined;
    if (node.kind === 'keys') node = node.keys[segment];
    else if (node.kind === 'names') node = node.of;
    else return undefined;
  }
  return node;
}

/** Whether jp knows this key: a value, or a table of values. */
export function isKnownKey(path: readonly string[]): boolean {
  return nodeAt(path) !== undefined;
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
  const table = nodeAt(parent);
  const siblings = table?.kind === 'keys' ? Object.keys(table.keys) : [];
  if (siblings.length > 0) {
    const best = closest(word, siblings);
    if (near(best, word)) return formatKey([...parent, best]);
  }
  // A misspelt table (`asistant.model`): compared as patterns, the user's names put back after.
  const typed = patternOf(strings);
  const paths = configKeyPaths();
  const best = closest(keyPattern(typed), paths.map(keyPattern));
  if (!near(best, keyPattern(typed))) return undefined;
  const match = paths.find((path) => keyPattern(path) === best)!;
  return formatKey(match.map((segment, i) => (/^<.+>$/.test(segment) && strings[i] !== undefined ? strings[i] : segment)));
}

/** The typed key with each name the user picks (a server's, a provider's) as its placeholder. */
function patternOf(path: readonly string[]): string[] {
  let node: Node | undefined = root();
  return path.map((segment, i) => {
    if (node?.kind === 'keys') {
      node = node.keys[segment];
      return segment;
    }
    if (node?.kind === 'names') {
      node = node.of;
      return PLACEHOLDERS[path[i - 1] ?? ''] ?? '<name>';
    }
    node = undefined;
    return segment;
  });
}
