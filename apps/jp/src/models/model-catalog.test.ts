import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogModel } from './model-catalog.ts';
import { writeCachedListing } from './model-listing-cache.ts';

const cache = mkdtempSync(path.join(os.tmpdir(), 'jp-catalog-'));
const env = { XDG_CACHE_HOME: cache };
afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe('catalogModel: config, then the cached listing, then the shipped table', () => {
  it('takes the shipped row, with its source, when nothing else knows the model', () => {
    const info = catalogModel({ providers: {} }, 'anthropic', 'claude-sonnet-4-5-20250929', env)!;
    expect(info.price).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(info.contextWindow).toBe(200_000);
    expect(info.sources.price).toBe('table');
    expect(info.references.table).toBe('https://platform.claude.com/docs/en/about-claude/models/overview (read 2026-12-02)');
  });

  it('a cached listing from this base URL wins over the table; config wins over both', async () => {
    await writeCachedListing('anthropic', { fetchedAt: '2026-12-01T10:00:00.000Z', baseUrl: 'https://api.anthropic.com', models: { 'claude-opus-5-5': { contextWindow: 2_000_000, maxOutputTokens: 64_000 } } }, env);
    const listed = catalogModel({ providers: {} }, 'anthropic', 'claude-opus-5-5', env)!;
    expect([listed.contextWindow, listed.sources.contextWindow, listed.maxOutputTokens, listed.price?.input, listed.sources.price]).toEqual([2_000_000, 'listing', 64_000, 4, 'table']);
    expect(listed.references.listing).toBe('fetched 2026-12-01T10:00:00.000Z');
    const configured = { providers: { anthropic: { models: { 'claude-opus-5-5': { context_window: 300 } }, prices: { 'claude-opus-5-5': { input: 9, output: 9 } } } } };
    const mine = catalogModel(configured, 'anthropic', 'claude-opus-5-5', env)!;
    expect([mine.contextWindow, mine.sources.contextWindow, mine.price]).toEqual([300, 'config', { input: 9, output: 9, cacheRead: 9, cacheWrite: 9 }]);
    // The listing of another server is not this configuration's.
    const elsewhere = catalogModel({ providers: { anthropic: { base_url: 'http://127.0.0.1:9' } } }, 'anthropic', 'claude-opus-5-5', env)!;
    expect(elsewhere.contextWindow).toBe(1_000_000);
  });

  it('says `reasoning_efforts = []` is a model that does not reason, and knows nothing of an unknown model', () => {
    const config = { providers: { openai: { models: { 'my-tune': { reasoning_efforts: [] } } } } };
    expect(catalogModel(config, 'openai', 'my-tune', env)!.reasoning).toBe(false);
    expect(catalogModel({ providers: {} }, 'openai', 'gpt-unknown', env)).toBeUndefined();
  });
});
