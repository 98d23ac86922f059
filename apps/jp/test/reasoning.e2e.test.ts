import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicTextStream,
  createWireServer,
  googleTextStream,
  openaiChatTextStream,
  openaiResponsesTextStream,
  type ScriptedResponse,
  type WireServer,
} from '@jp/test-server';
import { makeSandbox, runJp } from './helpers/run-jp.ts';

// `assistant.reasoning` / `--reasoning` reach each vendor's request body as its own parameter
// (RFD 028), through the binary and the vendors' SDKs against a local wire server.
describe('the reasoning setting, per provider', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  let server: WireServer;

  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
  });
  afterAll(async () => {
    await server?.close();
  });

  const providers: Array<{ model: string; config: string; base: () => string; key: Record<string, string>; reply: () => ScriptedResponse }> = [
    { model: 'anthropic/claude-test', config: 'anthropic', base: () => server.url, key: { ANTHROPIC_API_KEY: 'k' }, reply: () => anthropicTextStream('fine') },
    { model: 'openai/gpt-test', config: 'openai', base: () => `${server.url}/v1`, key: { OPENAI_API_KEY: 'k' }, reply: () => openaiResponsesTextStream('fine') },
    { model: 'google/gemini-2.5-flash', config: 'google', base: () => server.url, key: { GEMINI_API_KEY: 'k' }, reply: () => googleTextStream('fine') },
    { model: 'openrouter/x/y', config: 'openrouter', base: () => `${server.url}/v1`, key: { OPENROUTER_API_KEY: 'k' }, reply: () => openaiChatTextStream('fine') },
    { model: 'ollama/qwen3', config: 'ollama', base: () => `${server.url}/v1`, key: {}, reply: () => openaiChatTextStream('fine') },
  ];

  /** The body of the one request `jp query ARGS` sent to this provider. */
  async function bodyOf(provider: (typeof providers)[number], args: string[]): Promise<Record<string, any>> {
    const sent = server.requests.length;
    server.enqueue(provider.reply());
    const result = await runJp(['-c', `providers.${provider.config}.base_url=${JSON.stringify(provider.base())}`, 'query', '--new', '-m', provider.model, ...args, 'think'], {
      cwd: ws,
      env: { ...env, ...provider.key },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('fine\n');
    expect(server.requests.length).toBe(sent + 1);
    return server.requests[sent]!.body as Record<string, any>;
  }

  const reasoningFields = (body: Record<string, any>) => ({
    thinking: body.thinking,
    reasoning: body.reasoning,
    reasoning_effort: body.reasoning_effort,
    thinkingConfig: body.generationConfig?.thinkingConfig,
  });

  it('--reasoning high becomes each vendor parameter', async () => {
    const seen: Record<string, unknown> = {};
    for (const provider of providers) seen[provider.config] = reasoningFields(await bodyOf(provider, ['--reasoning', 'high']));
    expect(seen).toEqual({
      anthropic: { thinking: { type: 'enabled', budget_tokens: 32000 } },
      openai: { reasoning: { effort: 'high' } },
      google: { thinkingConfig: { thinkingBudget: 32000, includeThoughts: true } },
      openrouter: { reasoning: { effort: 'high' } },
      ollama: { reasoning_effort: 'high' },
    });
  });

  it('a budget from the config file, and off', async () => {
    const [anthropic, openai, , openrouter, ollama] = providers;
    const budget = await bodyOf(anthropic!, ['-c', 'assistant.reasoning={ budget_tokens = 2000 }']);
    expect(budget.thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
    expect((await bodyOf(openrouter!, ['-c', 'assistant.reasoning={ budget_tokens = 2000 }'])).reasoning).toEqual({ max_tokens: 2000 });
    expect((await bodyOf(anthropic!, ['--reasoning', 'off'])).thinking).toEqual({ type: 'disabled' });
    expect((await bodyOf(openai!, ['--reasoning', 'off', '--show-reasoning'])).reasoning).toEqual({ effort: 'none' });
    expect((await bodyOf(openai!, ['--reasoning', 'low', '--show-reasoning'])).reasoning).toEqual({ effort: 'low', summary: 'auto' });
    expect((await bodyOf(ollama!, ['--reasoning', 'off'])).reasoning_effort).toBe('none');
  });

  it('unset sends no reasoning parameter at all', async () => {
    for (const provider of providers) {
      const fields = reasoningFields(await bodyOf(provider, []));
      expect(Object.values(fields).filter((value) => value !== undefined), provider.config).toEqual([]);
    }
  });

  it('an unknown level is one line and exit 2, before anything is sent', async () => {
    const sent = server.requests.length;
    const result = await runJp(['query', '--new', '-m', 'anthropic/claude-test', '--reasoning', 'extreme', 'think'], {
      cwd: ws,
      env: { ...env, ANTHROPIC_API_KEY: 'k' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--reasoning/);
    expect(result.stderr).toMatch(/off|minimal|high/);
    expect(server.requests.length).toBe(sent);
  });
});
