// The strict Anthropic stand-in's prompt-cache model, cache diagnostics, and model listing, through the SDK.
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createStrictServer } from './strict-server.mjs';
import { ANTHROPIC_MODELS } from './anthropic/anthropic-models.mjs';
import type { StrictServer } from './strict-types.d.mts';

let server: StrictServer;
afterEach(() => server?.close());

async function start() {
  server = await createStrictServer({ vendor: 'anthropic' });
  return new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
}

const longSystem = [{ type: 'text' as const, text: `You answer questions. ${'Context line. '.repeat(400)}`, cache_control: { type: 'ephemeral' as const } }];
const tools = [{ name: 'read_file', description: 'Read a file.', input_schema: { type: 'object' as const, properties: {} } }];
const base = { model: 'claude-opus-5', max_tokens: 1000, system: longSystem, tools };

describe('strict Anthropic stand-in: prompt cache', () => {
  it('writes the prefix up to a breakpoint, then reads it on the next request', async () => {
    const client = await start();
    const first = await client.messages.create({ ...base, messages: [{ role: 'user', content: 'one' }] });
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(512);
    const second = await client.messages.create({ ...base, messages: [{ role: 'user', content: 'one' }, { role: 'assistant', content: first.content }, { role: 'user', content: 'two' }] });
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
  });

  it('writes nothing below the model\'s minimum cacheable length, and misses after a tools change', async () => {
    const client = await start();
    const short = await client.messages.create({ ...base, system: [{ type: 'text', text: 'Short.', cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: 'one' }] });
    expect(short.usage.cache_creation_input_tokens).toBe(0);
    await client.messages.create({ ...base, messages: [{ role: 'user', content: 'one' }] });
    const changed = await client.messages.create({ ...base, tools: [...tools, { ...tools[0]!, name: 'refresh_resource' }], messages: [{ role: 'user', content: 'one' }] });
    expect(changed.usage.cache_read_input_tokens).toBe(0);
  });

  it('reads the longest written prefix with the automatic top-level breakpoint as the conversation grows', async () => {
    const client = await start();
    const auto = { model: 'claude-opus-5', max_tokens: 1000, system: longSystem[0]!.text, cache_control: { type: 'ephemeral' as const } };
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'one' }];
    const first = await client.messages.create({ ...auto, messages });
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: 'two' });
    const second = await client.messages.create({ ...auto, messages });
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });
});

describe('strict Anthropic stand-in: cache diagnostics', () => {
  it('answers each cache_miss_reason against the request that produced previous_message_id', async () => {
    const client = await start();
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'one' }];
    const first = await client.messages.create({ ...base, messages, diagnostics: { previous_message_id: null } });
    expect(first.diagnostics).toBeNull();
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: 'two' });
    const ask = (overrides: Record<string, unknown>) =>
      client.messages.create({ ...base, messages, diagnostics: { previous_message_id: first.id }, ...overrides } as Anthropic.MessageCreateParamsNonStreaming);
    expect((await ask({})).diagnostics).toBeNull();
    const tools2 = (await ask({ tools: [...tools, { ...tools[0]!, name: 'more' }] })).diagnostics?.cache_miss_reason;
    expect(tools2).toMatchObject({ type: 'tools_changed' });
    expect((tools2 as { cache_missed_input_tokens: number }).cache_missed_input_tokens).toBeGreaterThan(0);
    expect((await ask({ system: 'Another system prompt.' })).diagnostics?.cache_miss_reason).toMatchObject({ type: 'system_changed' });
    const edited = await ask({ messages: [{ role: 'user', content: 'ONE' }, ...messages.slice(1)] });
    expect(edited.diagnostics?.cache_miss_reason).toMatchObject({ type: 'messages_changed' });
    expect((await ask({ model: 'claude-opus-5-5' })).diagnostics?.cache_miss_reason).toMatchObject({ type: 'model_changed' });
    expect((await ask({ thinking: { type: 'disabled' } })).diagnostics?.cache_miss_reason).toEqual({ type: 'unavailable' });
    const unknown = await ask({ diagnostics: { previous_message_id: 'msg_never_issued' } });
    expect(unknown.diagnostics?.cache_miss_reason).toEqual({ type: 'previous_message_not_found' });
  });

  it('carries diagnostics on message_start when streaming, and names a request that did not opt in as not found', async () => {
    const client = await start();
    const first = await client.messages.create({ ...base, messages: [{ role: 'user', content: 'one' }] });
    const stream = client.messages.stream({ ...base, diagnostics: { previous_message_id: first.id }, messages: [{ role: 'user', content: 'one' }, { role: 'assistant', content: first.content }, { role: 'user', content: 'two' }] });
    let started: Anthropic.Message | undefined;
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') started = event.message;
    });
    await stream.finalMessage();
    expect(started?.diagnostics).toEqual({ cache_miss_reason: { type: 'previous_message_not_found' } });
  });
});

describe('strict Anthropic stand-in: GET /v1/models', () => {
  it('pages the model table as ModelInfo rows, newest first, and serves one model by id', async () => {
    const client = await start();
    const ids: string[] = [];
    for await (const info of client.models.list({ limit: 5 })) ids.push(info.id);
    expect(ids).toEqual(ANTHROPIC_MODELS.map((m) => m.id));
    expect(server.requests.filter((r) => r.path === '/v1/models')).toHaveLength(4);
    const fable = await client.models.retrieve('claude-fable-5-1');
    expect(fable).toMatchObject({ id: 'claude-fable-5-1', type: 'model', max_input_tokens: 1_000_000, max_tokens: 128_000 });
    expect(fable.capabilities?.thinking.types).toEqual({ adaptive: { supported: true }, enabled: { supported: false }, disabled: { supported: false }, between_tools: { supported: false } });
    expect(fable.capabilities?.effort).toMatchObject({ supported: true, xhigh: { supported: true }, max: { supported: true } });
    const haiku = await client.models.retrieve('claude-haiku-4-5');
    expect(haiku.capabilities?.effort.supported).toBe(false);
    expect(haiku.max_input_tokens).toBe(200_000);
    await expect(client.models.retrieve('claude-unknown')).rejects.toMatchObject({ status: 404 });
  });
});
