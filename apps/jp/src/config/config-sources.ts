import type { Config } from './config-schema.ts';
import { formatKey } from './format-key.ts';
import { flattenLayers, type ConfigSource, type SourcedLayer } from './sourced-layer.ts';
import { formatTomlValue } from './toml-value.ts';

/** One effective value and where it came from. */
export interface SourcedValue {
  key: string[];
  value: unknown;
  source: ConfigSource;
  /** The layer's name (`/home/me/.config/jp/config.toml`, `-c "…"`, `conversation ID`); absent for a default. */
  from?: string | undefined;
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** Every leaf of a table (a value that is not a table, or an empty table) with its path. */
function leaves(table: Record<string, unknown>, at: string[] = []): Array<[string[], unknown]> {
  return Object.entries(table).flatMap(([key, value]): Array<[string[], unknown]> =>
    isTable(value) && Object.keys(value).length > 0 ? leaves(value, [...at, key]) : [[[...at, key], value]],
  );
}

const pathId = (path: readonly string[]): string => JSON.stringify(path);

/**
 * Each value of the effective configuration with the layer that gave it: the last layer that set
 * that key, else the schema's default. (A table a layer writes gives none of the values in it.)
 */
export function configSources(layers: readonly SourcedLayer[], config: Config): SourcedValue[] {
  const writers = new Map<string, SourcedLayer>();
  for (const sourced of flattenLayers(layers)) {
    for (const [path, value] of leaves(sourced.layer)) {
      // A value replaces what was under its key; a table merges, but replaces a value at its own key.
      for (let length = 1; length < path.length; length++) writers.delete(pathId(path.slice(0, length)));
      if (!isTable(value)) {
        const prefix = pathId(path).slice(0, -1) + ',';
        for (const id of [...writers.keys()]) if (id.startsWith(prefix)) writers.delete(id);
      }
      writers.set(pathId(path), sourced);
    }
  }
  return leaves(config as Record<string, unknown>).map(([key, value]) => {
    const writer = writers.get(pathId(key));
    return writer === undefined ? { key, value, source: 'default' } : { key, value, source: writer.source, from: writer.label };
  });
}

const SOURCE_WORDS: Record<ConfigSource, string> = {
  default: 'default',
  user: 'user file',
  workspace: 'workspace file',
  conversation: 'conversation',
  invocation: 'command line',
};

/**
 * The effective configuration as TOML, one dotted key per line, each followed by where its value
 * came from: `assistant.model = "echo"  # workspace file`. The text is itself valid TOML.
 */
export function renderSources(values: readonly SourcedValue[]): string[] {
  const rows = values.map((entry) => [`${formatKey(entry.key)} = ${formatTomlValue(entry.value)}`, SOURCE_WORDS[entry.source]] as const);
  const width = Math.min(60, Math.max(0, ...rows.map(([text]) => text.length)));
  return rows.map(([text, source]) => `${text.padEnd(width)}  # ${source}`);
}
