import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEY_DOCS } from './config-key-docs.ts';
import { configKeyPaths, keyPattern } from './config-keys.ts';
import { renderConfigReference } from './config-reference.ts';

const reference = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/config.md');

describe('docs/config.md', () => {
  const updating = process.env.UPDATE_CONFIG_DOCS === '1';

  it.skipIf(updating)('matches the schema (regenerate with `pnpm run docs:config`)', () => {
    expect(readFileSync(reference, 'utf8')).toBe(renderConfigReference());
  });

  it.runIf(updating)('UPDATE_CONFIG_DOCS=1 writes docs/config.md from the schema', () => {
    writeFileSync(reference, renderConfigReference());
  });

  it('has one line for every key of the schema, and none for a key it does not have', () => {
    const keys = configKeyPaths().map(keyPattern);
    expect(keys.filter((key) => CONFIG_KEY_DOCS[key] === undefined)).toEqual([]);
    expect(Object.keys(CONFIG_KEY_DOCS).filter((key) => !keys.includes(key))).toEqual([]);
  });

  it('lists each key with its type and default', () => {
    const rendered = renderConfigReference();
    expect(rendered).toContain('| `conversation.compaction.auto` | "off" \\| "ask" \\| "on" | `"ask"` |');
    expect(rendered).toContain('| `assistant.system_prompt` | string |  | The system prompt');
    expect(rendered).toContain('| `mcp.<server>.env` | table of strings |  |');
    expect(rendered).toContain('| `conversation.lock_timeout_secs` | number | `10` |');
  });
});
