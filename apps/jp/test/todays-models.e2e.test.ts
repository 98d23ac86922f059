import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ANTHROPIC_MODELS, createStrictServer, type StrictServer, type StrictVendor } from '@jp/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, runJp } from './helpers/run-jp.ts';

// Issue U through the binary, against the strict stand-ins (packages/test-server/src/strict): each
// provider with an adaptive-only, a budget-only and an older model, every reasoning level and a
// budget, --schema, `jp models` from a listing, from its cache and from jp's table, and a model jp
// does not know. The stand-ins refuse what the vendors document as refused; none may refuse here.
const LEVELS = ['off', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max', 'budget'] as const;

interface Vendor {
  vendor: StrictVendor;
  key: Record<string, string>;
  base: (url: string) => string;
  /** Three models: one that takes only levels, one that takes only budgets, an older one. */
  models: string[];
}

const VENDORS: Vendor[] = [
  { vendor: 'anthropic', key: { ANTHROPIC_API_KEY: 'k' }, base: (url) => url, models: ['claude-fable-5-1', 'claude-sonnet-4-5', 'claude-opus-4-7'] },
  { vendor: 'openai', key: { OPENAI_API_KEY: 'k' }, base: (url) => `${url}/v1`, models: ['gpt-5.5', 'gpt-5', 'gpt-4.1'] },
  { vendor: 'google', key: { GEMINI_API_KEY: 'k' }, base: (url) => url, models: ['gemini-3.1-pro-preview', 'gemini-2.5-flash', 'gemini-2.5-pro'] },
  { vendor: 'openrouter', key: { OPENROUTER_API_KEY: 'k' }, base: (url) => `${url}/api/v1`, models: ['anthropic/claude-opus-5.5', 'google/gemini-2.5-flash', 'anthropic/claude-sonnet-4.5'] },
  { vendor: 'ollama', key: {}, base: (url) => `${url}/v1`, models: ['qwen3:8b', 'llama3.2:3b'] },
];

/** A model the stand-in serves and jp's catalog does not know. */
const FUTURE = { ...ANTHROPIC_MODELS.find((row) => row.id === 'claude-opus-5-5')!, id: 'claude-future-9', name: 'Claude Future 9' };

for (const { vendor, key, base, models } of VENDORS) {
  describe(`${vendor} today (issue U)`, () => {
    const { root, env } = makeSandbox();
    const ws = path.join(root, 'project');
    let server: StrictServer;
    beforeAll(async () => {
      server = await createStrictServer({ vendor, models: vendor === 'anthropic' ? [...ANTHROPIC_MODELS, FUTURE] : undefined });
      mkdirSync(ws, { recursive: true });
      expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    });
    afterAll(async () => server.close());
    const jp = (args: string[]) => runJp(['-c', `providers.${vendor}.base_url=${JSON.stringify(base(server.url))}`, ...args], { cwd: ws, env: { ...env, ...key } });
    const refusals = () => server.rejections.map((rejection) => JSON.stringify(rejection.body));

    if (vendor === 'ollama') {
      it("lists the local models first (jp models --refresh), so the catalog knows which think", async () => {
        const listed = await jp(['models', 'ollama', '--refresh', '-F', 'json']);
        expect(listed.code, listed.stderr).toBe(0);
        const rows = listed.stdout.trim().split('\n').map((line) => JSON.parse(line));
        expect(rows.find((row) => row.id === 'llama3.2:3b')).toMatchObject({ reasoning: false, sources: { reasoning: 'listing' } });
      });
    }

    for (const model of models) {
      it(`${model}: every reasoning level and a budget, sent as the model takes them`, async () => {
        // Four at a time: each is a new conversation, and the stand-in answers them independently.
        for (let at = 0; at < LEVELS.length; at += 4) {
          await Promise.all(LEVELS.slice(at, at + 4).map(async (level) => {
            const setting = level === 'budget' ? ['-c', 'assistant.reasoning={ budget_tokens = 6000 }'] : ['--reasoning', level];
            const result = await jp(['query', '--new', '-m', `${vendor}/${model}`, ...setting, 'hi']);
            expect(result.code, `${model} ${level}: ${result.stderr}`).toBe(0);
            // At most one warning: the level the model lacked and the one sent instead.
            expect(result.stderr.split('\n').filter((line) => line.startsWith('jp: warning:')).length, result.stderr).toBeLessThanOrEqual(1);
          }));
        }
        expect(refusals()).toEqual([]);
      }, 120_000);
    }

    it('--schema: native structured output where the model has it; the answer is checked JSON', async () => {
      const schema = JSON.stringify({ type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false });
      const result = await jp(['query', '--new', '-m', `${vendor}/${models[0]}`, '--schema', schema, 'answer']);
      expect(result.code, result.stderr).toBe(0);
      expect(typeof JSON.parse(result.stdout).answer).toBe('string');
      expect(refusals()).toEqual([]);
    });
  });
}

describe('the model catalog through the binary (issue U)', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  let server: StrictServer;
  beforeAll(async () => {
    server = await createStrictServer({ vendor: 'anthropic', models: [...ANTHROPIC_MODELS, FUTURE] });
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
  });
  afterAll(async () => server.close());
  const at = () => ['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`];
  const rows = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);

  it('jp models: the table offline, then the listing fetched from the provider and cached', async () => {
    const offline = await runJp([...at(), 'models', 'anthropic', '-F', 'json'], { cwd: ws, env });
    expect(offline.code, offline.stderr).toBe(0);
    const fable = rows(offline.stdout).find((row) => row.id === 'claude-fable-5-1')!;
    expect(fable).toMatchObject({ contextWindow: 1_000_000, sources: { contextWindow: 'table', reasoning: 'table' } });
    expect(fable.references.table).toMatch(/^https:\/\/platform\.claude\.com\/.* \(read 2026-12-02\)$/);

    const refreshed = await runJp([...at(), 'models', 'anthropic', '--refresh', '-F', 'json'], { cwd: ws, env: { ...env, ANTHROPIC_API_KEY: 'k' } });
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(server.requests.some((request) => request.method === 'GET' && request.path === '/v1/models')).toBe(true);
    const listed = rows(refreshed.stdout);
    expect(listed.find((row) => row.id === 'claude-fable-5-1')).toMatchObject({ sources: { contextWindow: 'listing', reasoning: 'listing', price: 'table' } });
    // A model only the listing knows is listed, with the listing's facts.
    expect(listed.find((row) => row.id === 'claude-future-9')).toMatchObject({ maxOutputTokens: 128_000, sources: { maxOutputTokens: 'listing' } });

    // The cache answers without the server: the listing's values stay, with their fetch date.
    const requests = server.requests.length;
    const cached = await runJp([...at(), 'models', 'anthropic', '-F', 'json'], { cwd: ws, env });
    expect(server.requests.length).toBe(requests);
    expect(rows(cached.stdout).find((row) => row.id === 'claude-future-9')?.references.listing).toMatch(/^fetched 20\d\d-/);

    // The text table names each value's source.
    const text = await runJp([...at(), 'models', 'anthropic'], { cwd: ws, env });
    expect(text.stdout).toMatch(/^anthropic\/claude-fable-5-1 +1M +128k +adaptive low,medium,high,xhigh,max .* listing\+table$/m);
  });

  it('a model jp does not know runs: one warning, and no parameter guessed', async () => {
    const result = await runJp([...at(), 'query', '--new', '-m', 'anthropic/claude-unlisted-1', '--reasoning', 'high', 'hi'], {
      cwd: ws,
      env: { ...env, ANTHROPIC_API_KEY: 'k', XDG_CACHE_HOME: path.join(root, 'empty-cache') },
    });
    // The stand-in does not serve it either: the vendor's 404 is exit 3; jp itself refused nothing.
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("jp: warning: anthropic/claude-unlisted-1 is not in jp's model catalog");
    const body = server.requests.at(-1)!.body as Record<string, unknown>;
    expect([body.thinking, body.output_config]).toEqual([undefined, undefined]);
  });

  it('a model the stand-in serves but jp knows only from config runs with what config says', async () => {
    const refused = server.rejections.length;
    const result = await runJp([...at(), '-c', 'providers.anthropic.models.claude-future-9.thinking_types=["adaptive"]', '-c', 'providers.anthropic.models.claude-future-9.reasoning_efforts=["low","high"]', 'query', '--new', '-m', 'anthropic/claude-future-9', '--reasoning', 'medium', 'hi'], {
      cwd: ws,
      env: { ...env, ANTHROPIC_API_KEY: 'k', XDG_CACHE_HOME: path.join(root, 'empty-cache') },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('claude-future-9 has no medium effort; low is sent instead (it takes low, high)');
    const body = server.requests.at(-1)!.body as Record<string, any>;
    expect([body.thinking, body.output_config]).toEqual([{ type: 'adaptive' }, { effort: 'low' }]);
    expect(server.rejections.slice(refused)).toEqual([]);
  });

  it('completion after -m offers the shipped and the cached ids', async () => {
    const result = await runJp(['__complete', 'models'], { cwd: ws, env });
    const values = result.stdout.split('\n').map((line) => line.split('\t')[0]);
    expect(values).toContain('anthropic/claude-fable-5-1');
    expect(values).toContain('anthropic/claude-future-9');
  });
});
