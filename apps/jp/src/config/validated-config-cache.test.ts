import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SourcedLayer } from './sourced-layer.ts';
import { checkLayer, resolveConfig } from './validate-config.ts';
import { useValidatedConfigCache } from './validated-config-dir.ts';

let dir: string;
const file = () => path.join(dir, 'validated-config.json');
const stored = () => JSON.parse(readFileSync(file(), 'utf8')) as Record<string, unknown>;
const workspace = (layer: Record<string, unknown>): SourcedLayer[] => [{ source: 'workspace', label: '.jp/config.toml', layer }];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'jp-validated-'));
  useValidatedConfigCache(dir);
});
afterEach(() => {
  useValidatedConfigCache(undefined);
  rmSync(dir, { recursive: true, force: true });
});

describe('the validated-configuration cache', () => {
  it('answers a configuration validated before from the file, defaults applied, as a copy', () => {
    const first = resolveConfig(workspace({ assistant: { model: 'echo' } }));
    expect(first.assistant.max_tool_rounds).toBe(25);
    const [key] = Object.keys(stored()).filter((k) => (stored()[k] as { assistant?: unknown }).assistant !== undefined);
    // What a later command reads is the file's answer: an entry changed there is what comes back.
    writeFileSync(file(), JSON.stringify({ [key!]: { ...first, assistant: { ...first.assistant, max_tool_rounds: 7 } } }));
    useValidatedConfigCache(dir);
    const second = resolveConfig(workspace({ assistant: { model: 'echo' } }));
    expect(second.assistant.max_tool_rounds).toBe(7);
    second.assistant.max_tool_rounds = 99;
    expect(resolveConfig(workspace({ assistant: { model: 'echo' } })).assistant.max_tool_rounds).toBe(7);
  });

  it('never remembers a layer or configuration holding a secret', () => {
    const layer = { mcp: { gh: { command: 'gh', env: { GITHUB_TOKEN: 'ghp_not_a_real_token_123' } } } };
    checkLayer(layer, 'config.toml');
    resolveConfig(workspace(layer));
    resolveConfig(workspace({ providers: { openai: { base_url: 'https://user:pass123@example.test/v1' } } }));
    let text = '';
    try {
      text = readFileSync(file(), 'utf8');
    } catch {
      // Nothing written at all is as good.
    }
    expect(text).not.toContain('ghp_not_a_real_token_123');
    expect(text).not.toContain('pass123');
  });

  it('does not remember values JSON cannot hold (a TOML date), nor a configuration that failed', () => {
    resolveConfig(workspace({ tools: { t: { command: 'x', description: 'd', parameters: { since: new Date(0) } } } }));
    expect(() => resolveConfig(workspace({ assistant: { max_tool_rounds: -1 } }))).toThrow(/max_tool_rounds/);
    expect(() => checkLayer({ assistant: { modle: 'echo' } }, 'config.toml')).toThrow(/unknown key/);
    let entries: Record<string, unknown> = {};
    try {
      entries = stored();
    } catch {
      // No file: nothing was remembered.
    }
    expect(Object.keys(entries)).toHaveLength(0);
  });

  it('still rejects a bad layer after a good one was remembered', () => {
    checkLayer({ assistant: { model: 'echo' } }, 'config.toml');
    expect(Object.values(stored())).toContain(true);
    expect(() => checkLayer({ assistant: { model: 'echo', max_tokens: 0 } }, 'config.toml')).toThrow(/max_tokens/);
  });

  it('keeps the newest 32 answers', () => {
    for (let rounds = 1; rounds <= 40; rounds += 1) resolveConfig(workspace({ assistant: { max_tool_rounds: rounds } }));
    const answers = Object.values(stored()) as Array<{ assistant: { max_tool_rounds: number } }>;
    expect(answers).toHaveLength(32);
    expect(answers.map((answer) => answer.assistant.max_tool_rounds)).toEqual(Array.from({ length: 32 }, (_, i) => i + 9));
  });

  it('makes its directory and the one above it, never a missing home', () => {
    useValidatedConfigCache(path.join(dir, 'cache', 'jp'));
    resolveConfig(workspace({}));
    expect(readFileSync(path.join(dir, 'cache', 'jp', 'validated-config.json'), 'utf8')).toContain('max_bytes');
    useValidatedConfigCache(path.join(dir, 'no-home', '.cache', 'jp'));
    expect(resolveConfig(workspace({})).style.render).toBe(true);
    expect(existsSync(path.join(dir, 'no-home'))).toBe(false);
  });

  it('validates as before when the cache file is damaged', () => {
    resolveConfig(workspace({ style: { render: false } }));
    const [key] = Object.keys(stored());
    writeFileSync(file(), JSON.stringify({ [key!]: 'not a table' }));
    useValidatedConfigCache(dir);
    expect(resolveConfig(workspace({ style: { render: false } })).style.render).toBe(false);
    writeFileSync(file(), '{not json');
    useValidatedConfigCache(dir);
    expect(resolveConfig(workspace({})).conversation.attachment.max_bytes).toBe(512 * 1024);
    expect(Object.keys(stored())).toHaveLength(1);
  });
});
