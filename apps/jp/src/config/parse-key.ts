import { parse as parseToml } from 'smol-toml';
import { UsageError } from '@jp/core';

/*
 * A config key as TOML writes one: bare words (`assistant.model`) and quoted ones
 * (`providers.openai.models."gpt-4.1".context_window`, `mcp.'my.server'.command`), joined by dots.
 * The boundaries are found here; a quoted word is decoded by the TOML parser, so its escapes are
 * TOML's own.
 */

const BARE = /[A-Za-z0-9_-]/;

/** A quoted word starting at `start` (its opening quote): its text as written, quotes included. */
function quotedEnd(text: string, start: number): number {
  const quote = text[start]!;
  for (let i = start + 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) return i + 1;
  }
  return -1;
}

function decodeQuoted(written: string): string | undefined {
  if (/[\r\n]/.test(written)) return undefined;
  try {
    const value = (parseToml(`k = ${written}`) as { k: unknown }).k;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a dotted key from the start of `text`, stopping at `stop` outside quotes (`=` for
 * `-c KEY=VALUE`) or at the end. Returns its segments and where it stopped, or `undefined` when
 * it is not a key.
 */
export function readKey(text: string, stop?: string): { segments: string[]; end: number } | undefined {
  const segments: string[] = [];
  let i = 0;
  const skipSpace = () => {
    while (text[i] === ' ' || text[i] === '\t') i++;
  };
  for (;;) {
    skipSpace();
    const start = i;
    if (text[i] === '"' || text[i] === "'") {
      const end = quotedEnd(text, i);
      if (end === -1) return undefined;
      const decoded = decodeQuoted(text.slice(start, end));
      if (decoded === undefined) return undefined;
      segments.push(decoded);
      i = end;
    } else {
      while (i < text.length && BARE.test(text[i]!)) i++;
      if (i === start) return undefined;
      segments.push(text.slice(start, i));
    }
    skipSpace();
    if (i === text.length || (stop !== undefined && text[i] === stop)) return { segments, end: i };
    if (text[i] !== '.') return undefined;
    i++;
  }
}

/** A whole argument as a key: `assistant.model`, `providers.openai.models."gpt-4.1".context_window`. */
export function parseKey(key: string, source: string): string[] {
  const read = readKey(key);
  if (read === undefined) {
    throw new UsageError(`malformed key in ${source}: "${key}" (expected dotted words, e.g. assistant.model, or quoted ones: providers.openai.models."gpt-4.1".context_window)`, {
      code: 'malformed_config',
    });
  }
  return read.segments;
}
