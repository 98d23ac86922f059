import { hasUrlSecrets } from '@jp/core';
import { isReferenceOnly } from './env-references.ts';
import { formatKey } from './format-key.ts';
import type { ConfigLayer } from './merge-config.ts';

/*
 * Which configuration values are secrets (RFD 001, secrets). jp uses them but never writes them under
 * `.jp/`: a `-c` value of a secret field stays out of the turn's `config_delta`, and `jp config set`
 * refuses one. A leaf value (anything but a table) is secret when
 *   1. it is an MCP server's environment value, `mcp.<server>.env.<NAME>`, whatever NAME is; or
 *   2. its own key is secret-named: split on `_` and `-`, its words include `token`, `secret`,
 *      `password`, `passwd`, `passphrase`, `credential(s)`, `apikey`, or `api` followed by `key`;
 *      unless its last word is `env` (it names a variable: `api_key_env`).
 *   3. it is a string holding a URL with a secret in it: a userinfo password or token, or a
 *      credential query parameter (`?key=`, `?token=`…; RFD 013), whatever its key is.
 * Never secret: `mcp.<server>.env_from.<NAME>` (variable names), and a value of one or more
 * `${NAME}` references and nothing else (it names secrets, holds none). Whole words are compared,
 * so `max_tokens` (the word `tokens`) is not secret.
 */

const SECRET_WORDS = new Set(['token', 'secret', 'password', 'passwd', 'passphrase', 'credential', 'credentials', 'apikey']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a key's own name marks its value as secret (rule 2). */
export function isSecretName(key: string): boolean {
  const words = key.toLowerCase().split(/[_-]+/).filter((word) => word !== '');
  if (words.at(-1) === 'env') return false;
  return words.some((word, i) => SECRET_WORDS.has(word) || (word === 'api' && words[i + 1] === 'key'));
}

/** Whether a leaf value at this path is secret (it is not, when it only holds references). */
export function isSecretField(segments: readonly string[], value: unknown): boolean {
  if (isReferenceOnly(value)) return false;
  const [top, , table] = segments;
  if (top === 'mcp' && segments.length === 4 && table === 'env_from') return false;
  if (top === 'mcp' && segments.length === 4 && table === 'env') return true;
  if (hasUrlSecrets(typeof value === 'string' ? value : JSON.stringify(value) ?? '')) return true;
  return isSecretName(segments.at(-1) ?? '');
}

/**
 * The layer without its secret values, and the dotted paths of what was left out. A table that
 * only held secrets is left out with them; a table that was empty to begin with stays.
 */
export function withoutSecrets(layer: ConfigLayer): { kept: ConfigLayer; removed: string[] } {
  const removed: string[] = [];
  const walk = (table: Record<string, unknown>, at: string[]): Record<string, unknown> | undefined => {
    const out: Record<string, unknown> = {};
    let dropped = false;
    for (const [key, value] of Object.entries(table)) {
      const here = [...at, key];
      if (isPlainObject(value)) {
        const inner = walk(value, here);
        if (inner === undefined) dropped = true;
        else out[key] = inner;
      } else if (isSecretField(here, value)) {
        removed.push(formatKey(here));
        dropped = true;
      } else {
        out[key] = value;
      }
    }
    return dropped && Object.keys(out).length === 0 ? undefined : out;
  };
  return { kept: walk(layer, []) ?? {}, removed };
}
