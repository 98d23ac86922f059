import { parse as parseToml } from 'smol-toml';
import { UsageError } from '@jp/core';
import { layerFromPath, type ConfigLayer } from './merge-config.ts';

import { parseKey, readKey } from './parse-key.ts';

export { parseKey };

/** A value as TOML (`42`, `true`, `["a","b"]`, `"quoted"`); anything that isn't TOML is a string. */
export function parseValue(text: string): unknown {
  try {
    return (parseToml(`value = ${text}`) as { value: unknown }).value;
  } catch {
    return text;
  }
}

/** Where a `-c` argument's key ends: the first `=` outside quotes; -1 without one. */
export function cfgArgSplit(arg: string): number {
  const read = readKey(arg, '=');
  if (read !== undefined) return read.end < arg.length ? read.end : -1;
  return arg.indexOf('=');
}

/** `-c assistant.model=echo` → `{assistant: {model: "echo"}}`; `-c 'providers.openai.models."gpt-4.1".context_window=1'` too. */
export function parseCfgArg(arg: string): ConfigLayer {
  const eq = cfgArgSplit(arg);
  if (eq <= 0) {
    throw new UsageError(`malformed -c "${arg}": expected KEY=VALUE, e.g. -c assistant.model=echo`, { code: 'malformed_config' });
  }
  const segments = parseKey(arg.slice(0, eq), `-c "${arg}"`);
  return layerFromPath(segments, parseValue(arg.slice(eq + 1)));
}
