import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createProvider, IMPLEMENTED_PROVIDERS } from './create-provider.ts';
import { KNOWN_PROVIDERS } from '@jp/core';

const here = dirname(fileURLToPath(import.meta.url));

describe('createProvider', () => {
  it('creates echo and anthropic, passing the settings through', async () => {
    const events = [{ type: 'turn_start', timestamp: 't' }, { type: 'chat_request', timestamp: 't', content: 'hi', resources: [] }];
    const echo = createProvider('echo', {});
    expect([echo.id, echo.buildRequest({ model: 'echo', events }).request]).toMatchObject(['echo', { turns: [{ query: 'hi' }] }]);

    const anthropic = createProvider('anthropic', { apiKeyEnv: 'TEAM_KEY' });
    expect(anthropic.id).toBe('anthropic');
    expect(anthropic.buildRequest({ model: 'claude-x', events }).request).toMatchObject({ model: 'claude-x', stream: true });
    const stream = anthropic.stream({ model: 'claude-x', events })[Symbol.asyncIterator]();
    await expect(stream.next()).rejects.toMatchObject({ code: 'missing_api_key', message: expect.stringMatching(/^TEAM_KEY is not set/) });
  });

  it('creates a provider for every known id, without loading any SDK', () => {
    for (const id of KNOWN_PROVIDERS) expect(createProvider(id, { apiKey: 'k' }).id).toBe(id);
  });

  it('says which providers read resources’ content: every vendor; echo works from content references', () => {
    const reads = Object.fromEntries(IMPLEMENTED_PROVIDERS.map((id) => [id, createProvider(id, { apiKey: 'k' }).readsContent]));
    expect(reads).toEqual({ anthropic: true, echo: false, google: true, ollama: true, openai: true, openrouter: true });
  });

  it('imports the Anthropic SDK only lazily: every static import of it is type-only', () => {
    const sources = readdirSync(here, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.includes('__fixtures__'))
      .map((path) => ({ path, text: readFileSync(join(here, path), 'utf8') }));
    const staticImports = sources.flatMap(({ path, text }) =>
      [...text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'@anthropic-ai\/sdk[^']*'/gm)].map(() => path),
    );
    const dynamicImports = sources.filter(({ text }) => text.includes("await import('@anthropic-ai/sdk')")).map(({ path }) => path);

    expect(staticImports).toEqual([]);
    expect(dynamicImports).toEqual([join('anthropic', 'anthropic-provider.ts'), join('catalog', 'listings', 'fetch-model-listing.ts')]);
  });

  it('imports the OpenAI SDK only lazily, in one place: every static import of it is type-only', () => {
    const sources = readdirSync(here, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.includes('__fixtures__'))
      .map((path) => ({ path, text: readFileSync(join(here, path), 'utf8') }));
    const staticImports = sources.flatMap(({ path, text }) =>
      [...text.matchAll(/^\s*(import|export)\s+(?!type\b)[^;]*?from\s+'openai[/'][^;]*;/gm)].map(() => path),
    );
    const dynamicImports = sources.filter(({ text }) => /import\(\s*'openai/.test(text)).map(({ path }) => path);

    expect(staticImports).toEqual([]);
    expect(dynamicImports).toEqual([join('openai', 'openai-client.ts')]);
    expect(sources.some(({ text }) => /from 'openai[/']/.test(text))).toBe(true); // the check looks at the files that use the SDK's types
  });
});
