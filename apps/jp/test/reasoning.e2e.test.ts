import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicStreamEvents,
  anthropicTextStream,
  googleStreamChunks,
  googleTextStream,
  openaiChatTextStream,
  openaiResponsesEvents,
  openaiResponsesTextStream,
  sseResponse,
  type ScriptedResponse,
} from '@jp/test-server';
import { runJp } from './helpers/run-jp.ts';
import { wireWorkspace } from './helpers/wire-workspace.ts';

// `assistant.reasoning` / `--reasoning` reach each vendor's request body as its own parameter
// (RFD 028), through the binary and the vendors' SDKs against a local wire server.
describe('the reasoning setting, per provider', () => {
  const { ws, env, server } = wireWorkspace();

  const providers: Array<{ model: string; config: string; base: () => string; key: Record<string, string>; reply: () => ScriptedResponse }> = [
    { model: 'anthropic/claude-sonnet-4-5', config: 'anthropic', base: () => server().url, key: { ANTHROPIC_API_KEY: 'k' }, reply: () => anthropicTextStream('fine') },
    { model: 'openai/gpt-5.1', config: 'openai', base: () => `${server().url}/v1`, key: { OPENAI_API_KEY: 'k' }, reply: () => openaiResponsesTextStream('fine') },
    { model: 'google/gemini-2.5-flash', config: 'google', base: () => server().url, key: { GEMINI_API_KEY: 'k' }, reply: () => googleTextStream('fine') },
    { model: 'openrouter/anthropic/claude-sonnet-4.5', config: 'openrouter', base: () => `${server().url}/v1`, key: { OPENROUTER_API_KEY: 'k' }, reply: () => openaiChatTextStream('fine') },
    { model: 'ollama/qwen3', config: 'ollama', base: () => `${server().url}/v1`, key: {}, reply: () => openaiChatTextStream('fine') },
  ];

  /** The body of the one request `jp query ARGS` sent to this provider. */
  async function bodyOf(provider: (typeof providers)[number], args: string[]): Promise<Record<string, any>> {
    const sent = server().requests.length;
    server().enqueue(provider.reply());
    const result = await runJp(['-c', `providers.${provider.config}.base_url=${JSON.stringify(provider.base())}`, 'query', '--new', '-m', provider.model, ...args, 'think'], {
      cwd: ws,
      env: { ...env, ...provider.key },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('fine\n');
    expect(server().requests.length).toBe(sent + 1);
    return server().requests[sent]!.body as Record<string, any>;
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
      // Gemini 2.5 Flash thinks at most 24 576 tokens: high is as much as it goes (RFD 031).
      google: { thinkingConfig: { thinkingBudget: 24576, includeThoughts: true } },
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

  it('reasoning tokens reach the -F json result (OpenAI reasoning_tokens, Gemini thoughtsTokenCount)', async () => {
    const cases = [
      { provider: providers[1]!, reply: openaiResponsesTextStream('fine', { usage: { output_tokens: 30, output_tokens_details: { reasoning_tokens: 21 } } }) },
      { provider: providers[2]!, reply: googleTextStream('fine', { usage: { promptTokenCount: 5, candidatesTokenCount: 9, thoughtsTokenCount: 17 } }) },
    ];
    const seen = [];
    for (const { provider, reply } of cases) {
      server().enqueue(reply);
      const result = await runJp(['-c', `providers.${provider.config}.base_url=${JSON.stringify(provider.base())}`, '-F', 'json', 'query', '--new', '-m', provider.model, '--reasoning', 'low', 'think'], {
        cwd: ws,
        env: { ...env, ...provider.key },
      });
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
      seen.push(lines.find((line) => line.type === 'result')?.usage);
    }
    expect(seen).toMatchObject([
      { outputTokens: 30, reasoningTokens: 21 },
      { outputTokens: 26, reasoningTokens: 17 },
    ]);
  });

  it('an unknown level is one line and exit 2, before anything is sent', async () => {
    const sent = server().requests.length;
    const result = await runJp(['query', '--new', '-m', 'anthropic/claude-test', '--reasoning', 'extreme', 'think'], {
      cwd: ws,
      env: { ...env, ANTHROPIC_API_KEY: 'k' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--reasoning/);
    expect(result.stderr).toMatch(/off|minimal|high/);
    expect(server().requests.length).toBe(sent);
  });
});

const stripCacheControl = (value: unknown) => JSON.parse(JSON.stringify(value, (key, v) => (key === 'cache_control' ? undefined : v)));

// Anthropic wants each thinking block, signature and all, back before the tool_use it led to.
describe('anthropic thinking carried through a tool loop and later turns', () => {
  const { ws, env, server } = wireWorkspace({ 'main.rs': 'fn main() {}\n' });
  const file = path.join(ws, 'main.rs');
  const SIGNATURE = 'EqQBCkYIBxgCKkD+/sig==';
  const REDACTED = 'RedactedOpaqueBlob==';
  const jp = (args: string[]) =>
    runJp(['-c', `providers.anthropic.base_url=${JSON.stringify(server().url)}`, '-c', `providers.openai.base_url=${JSON.stringify(`${server().url}/v1`)}`, ...args], {
      cwd: ws,
      env: { ...env, ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' },
    });
  let bodies: Array<Record<string, any>> = [];
  let shown = '';

  beforeAll(async () => {
    const uri = pathToFileURL(file).href;
    const blocks = [
      { type: 'thinking', thinking: ['Check ', 'the file.'], signature: SIGNATURE },
      { type: 'redacted_thinking', data: REDACTED },
      { type: 'tool_use', id: 'toolu_1', name: 'refresh_resource', input: { uri } },
    ] as const;
    server().enqueue(sseResponse(anthropicStreamEvents(blocks, { stopReason: 'tool_use' })), anthropicTextStream('done'));
    const first = await jp(['query', '--new', '-m', 'anthropic/claude-sonnet-4-5', '--reasoning', 'low', '--attach', 'main.rs', 'look']);
    expect(first.code, first.stderr).toBe(0);
    server().enqueue(anthropicTextStream('again'));
    const second = await jp(['query', '--reasoning', 'low', 'and now?']);
    expect(second.code, second.stderr).toBe(0);
    server().enqueue(openaiResponsesTextStream('switched'));
    const third = await jp(['query', '-m', 'openai/gpt-5.1', 'other model']);
    expect(third.code, third.stderr).toBe(0);
    bodies = server().requests.map((request) => request.body as Record<string, any>);
    shown = (await jp(['-F', 'json', 'conversation', 'show'])).stdout;
  });

  it('the tool loop replays the thinking blocks, byte for byte, before the tool call', () => {
    expect(bodies).toHaveLength(4);
    const assistant = bodies[1]!.messages[1];
    expect(assistant.role).toBe('assistant');
    expect(JSON.stringify(assistant.content.slice(0, 2))).toBe(
      JSON.stringify([
        { type: 'thinking', thinking: 'Check the file.', signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED },
      ]),
    );
    expect(assistant.content[2]).toMatchObject({ type: 'tool_use', id: 'toolu_1' });
  });

  it("the next turn's request starts with the earlier request's bytes", () => {
    const before = stripCacheControl(bodies[1]!.messages);
    const after = stripCacheControl(bodies[2]!.messages);
    expect(JSON.stringify(after.slice(0, before.length))).toBe(JSON.stringify(before));
  });

  it("a switch to another provider sends neither Anthropic's opaque data nor its reasoning text", () => {
    const openai = JSON.stringify(bodies[3]);
    expect(openai).toContain('other model');
    expect(openai).toContain('again');
    expect(openai).not.toContain(SIGNATURE);
    expect(openai).not.toContain(REDACTED);
    expect(openai).not.toContain('Check the file.');
  });

  it('conversation show -F json marks the opaque data without showing it', () => {
    expect(shown).not.toContain(SIGNATURE);
    expect(shown).not.toContain(REDACTED);
    // The two blocks, and where the tool call sat among them (issue V).
    expect(shown).toContain('"opaque":{"provider":"anthropic","items":3,"stored":true}');
  });
});

// OpenAI's reasoning items (encrypted, nothing stored at OpenAI) and Gemini's thought signatures,
// through the binary: each goes back in place in the tool loop and in later turns, to its own
// provider only.
describe('openai reasoning items and gemini thought signatures carried through a tool loop', () => {
  const { ws, env, server } = wireWorkspace({ 'main.rs': 'fn main() {}\n' });
  const file = path.join(ws, 'main.rs');
  const ENCRYPTED = 'gAAAAABopaque-reasoning==';
  const SIGNATURE = 'R2VtaW5pU2lnbmF0dXJl';
  const jp = (args: string[]) =>
    runJp(
      ['-c', `providers.openai.base_url=${JSON.stringify(`${server().url}/v1`)}`, '-c', `providers.google.base_url=${JSON.stringify(server().url)}`, '-c', `providers.anthropic.base_url=${JSON.stringify(server().url)}`, ...args],
      { cwd: ws, env: { ...env, OPENAI_API_KEY: 'k', GEMINI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' } },
    );
  const bodies = () => server().requests.map((request) => request.body as Record<string, any>);


  it('openai: the encrypted item goes back before the call, the next turn keeps the bytes, reasoning tokens are counted, a switch drops it', async () => {
    const uri = pathToFileURL(file).href;
    const start = server().requests.length;
    server().enqueue(
      sseResponse(openaiResponsesEvents([{ type: 'reasoning', summary: 'Check the file.', encryptedContent: ENCRYPTED }, { type: 'function_call', callId: 'call_1', name: 'refresh_resource', arguments: { uri } }])),
      openaiResponsesTextStream('done', { usage: { output_tokens: 40, output_tokens_details: { reasoning_tokens: 25 } } }),
    );
    const first = await jp(['-F', 'json', 'query', '--new', '-m', 'openai/gpt-5.1', '--reasoning', 'low', '--show-reasoning', '--attach', 'main.rs', 'look']);
    expect(first.code, first.stderr).toBe(0);
    const usage = first.stdout.trim().split('\n').map((line) => JSON.parse(line)).find((line) => line.type === 'result')?.usage;
    expect(usage).toMatchObject({ reasoningTokens: 25 });
    const shown = (await jp(['conversation', 'show'])).stdout;
    expect(shown).toContain('assistant (reasoning summary): Check the file.');
    expect(shown).toMatch(/tokens: [\d,]+ in, 45 out \(25 reasoning\)/);
    expect(shown).not.toContain(ENCRYPTED);
    server().enqueue(openaiResponsesTextStream('again'));
    expect((await jp(['query', '--reasoning', 'low', 'and now?'])).code).toBe(0);
    server().enqueue(anthropicTextStream('switched'));
    expect((await jp(['query', '-m', 'anthropic/claude-sonnet-4-5', 'other model'])).code).toBe(0);
    const [call, loop, next, other] = bodies().slice(start);
    expect(call!.include).toEqual(['reasoning.encrypted_content']);
    const item = loop!.input.find((entry: any) => entry.type === 'reasoning');
    expect(JSON.stringify(item)).toBe(JSON.stringify({ type: 'reasoning', id: 'rs_0', summary: [{ type: 'summary_text', text: 'Check the file.' }], encrypted_content: ENCRYPTED }));
    expect(loop!.input[loop!.input.indexOf(item) + 1]).toMatchObject({ type: 'function_call', call_id: 'call_1' });
    expect(JSON.stringify(next!.input.slice(0, loop!.input.length + 1))).toBe(JSON.stringify([...loop!.input, next!.input[loop!.input.length]]));
    expect(JSON.stringify(other)).not.toContain(ENCRYPTED);
    expect(JSON.stringify(other)).not.toContain('Check the file.');
  });

  it('gemini: the stored signature goes back on its call (no validator bypass), and on the signed text', async () => {
    const uri = pathToFileURL(file).href;
    const start = server().requests.length;
    server().enqueue(
      sseResponse(googleStreamChunks([{ type: 'thought', text: 'Plan.' }, { type: 'functionCall', id: 'call_g', name: 'refresh_resource', args: { uri }, thoughtSignature: SIGNATURE }])),
      sseResponse(googleStreamChunks([{ type: 'text', text: 'done', thoughtSignature: `${SIGNATURE}2` }])),
    );
    const first = await jp(['query', '--new', '-m', 'google/gemini-3-pro-preview', '--reasoning', 'high', '--attach', 'main.rs', 'look']);
    expect(first.code, first.stderr).toBe(0);
    server().enqueue(googleTextStream('again'));
    expect((await jp(['query', 'and now?'])).code).toBe(0);
    const [, loop, next] = bodies().slice(start);
    const parts = (body: any) => body.contents.flatMap((content: any) => content.parts);
    expect(parts(loop).find((part: any) => part.functionCall?.id === 'call_g')?.thoughtSignature).toBe(SIGNATURE);
    expect(parts(next).find((part: any) => part.text === 'done')?.thoughtSignature).toBe(`${SIGNATURE}2`);
    expect(JSON.stringify(next!.contents.slice(0, loop!.contents.length))).toBe(JSON.stringify(loop!.contents));
    expect(JSON.stringify(next)).not.toContain('skip_thought_signature_validator');
  });
});
