import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backgroundRefreshDue, LISTING_MAX_AGE_MS } from './refresh-in-background.ts';

const cache = mkdtempSync(path.join(os.tmpdir(), 'jp-refresh-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));
const env = { XDG_CACHE_HOME: cache, ANTHROPIC_API_KEY: 'k' };
const none = { providers: {} };
const now = Date.parse('2026-12-02T12:00:00Z');

describe('backgroundRefreshDue', () => {
  it('is due on a terminal, with the key, against the vendor endpoint, when no listing is cached', () => {
    expect(backgroundRefreshDue(none, 'anthropic', { terminal: true, env, now })).toBe(true);
  });

  it('is not due in scripts, without the key, for a configured base URL, for echo or ollama, or when turned off', () => {
    expect(backgroundRefreshDue(none, 'anthropic', { terminal: false, env, now })).toBe(false);
    expect(backgroundRefreshDue(none, 'anthropic', { terminal: true, env: { XDG_CACHE_HOME: cache }, now })).toBe(false);
    expect(backgroundRefreshDue({ providers: { anthropic: { base_url: 'http://127.0.0.1:1' } } }, 'anthropic', { terminal: true, env, now })).toBe(false);
    expect(backgroundRefreshDue(none, 'echo', { terminal: true, env, now })).toBe(false);
    expect(backgroundRefreshDue(none, 'ollama', { terminal: true, env, now })).toBe(false);
    expect(backgroundRefreshDue(none, 'anthropic', { terminal: true, env: { ...env, JP_NO_BACKGROUND_REFRESH: '1' }, now })).toBe(false);
  });

  it('is due again once the cached listing is a week old', () => {
    const file = path.join(cache, 'jp', 'models', 'anthropic.jsonl');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{}');
    const at = (ms: number) => utimesSync(file, new Date(ms), new Date(ms));
    at(now - LISTING_MAX_AGE_MS + 60_000);
    expect(backgroundRefreshDue(none, 'anthropic', { terminal: true, env, now })).toBe(false);
    at(now - LISTING_MAX_AGE_MS - 60_000);
    expect(backgroundRefreshDue(none, 'anthropic', { terminal: true, env, now })).toBe(true);
  });
});
