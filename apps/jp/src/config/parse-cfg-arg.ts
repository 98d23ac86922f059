import { parse as parseToml } from 'smol-toml';
import { UsageError } from '@jp/core';
import { layerFromPath, type ConfigLayer } from './merge-config.ts';

const SEGMENT = /^[A-Za-z0-9_-]+$/;

export function parseKey(key: string, source: string): string[] {
  const segments = key.split('.');
  if (key === '' || !segments.every((segment) => SEGMENT.test(segment))) {
    throw new UsageError(`malformed key in ${source}: "${key}" (expected dotted words, e.g. assistant.model)`, { code: 'malformed_config' });
  }
  return segments;
}

/** A value as TOML (`42`, `true`, `["a","b"]`, `"quoted"`); anything that isn't TOML is a string. */
export function parseValue(text: string): unknown {
  try {
    return (parseToml(`value = ${text}`) as { value: unknown }).value;
  } catch {
    return text;
  }
}

/** `-c assistant.model=echo` → `{assistant: {model: "echo"}}`. */
export function parseCfgArg(arg: string): ConfigLayer {
  const eq = arg.indexOf('=');
  if (eq <= 0) {
    throw new UsageError(`malformed -c "${arg}": expected KEY=VALUE, e.g. -c assistant.model=echo`, { code: 'malformed_config' });
  }
  const segments = parseKey(arg.slice(0, eq), `-c "${arg}"`);
  return layerFromPath(segments, parseValue(arg.slice(eq + 1)));
}
