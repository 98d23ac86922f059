// Preserved thinking on the strict Anthropic stand-in, through the real SDK: signatures bound to
// system, tools and earlier messages; thinking blocks as a chain; drop_block; tamper; older models.
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createStrictServer } from './strict-server.mjs';
import type { StrictServer } from './strict-types.d.mts';

let server: StrictServer;
afterEach(() => server?.close());

const BINDING = 'thinking-binding-controls-2026-08-01';
const tool: Anthropic.Tool = { name: 'read_file', description: 'Read a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } };
const base = { max_tokens: 4000, system: 'You are a coding agent.', tools: [tool] };

async function start(options: { account?: 'new' | 'legacy' } = {}) {
  server = await createStrictServer({ vendor: 'anthropic', ...options });
  return new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
}

/** Three user turns on one model, each answer appended exactly as returned. */
async function threeTurns(client: Anthropic, model: string) {
  const messages: Anthropic.MessageParam[] = [];
  for (const text of ['one', 'two', 'three']) {
    messages.push({ role: 'user', content: text });
    const answer = await client.messages.create({ ...base, model, thinking: { type: 'adaptive' }, messages });
    messages.push({ role: 'assistant', content: answer.content });
  }
  return messages;
}

const errorMessage = (error: unknown) => (error as { error?: { error?: { message?: string } } }).error?.error?.message;

async function rejection(promise: Promise<unknown>) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error, 'expected a 400').toBeDefined();
  expect((error as { status?: number }).status).toBe(400);
  return errorMessage(error) ?? '';
}

const BOUND = 'Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block".';
const NEEDS_HEADER = ' That setting requires the `thinking-binding-controls-2026-08-01` value in the `anthropic-beta` header.';

describe('strict Anthropic stand-in: preserved thinking (prefix binding)', () => {
  it('accepts a conversation that only appends, answers as returned included', async () => {
    const client = await start();
    const messages = await threeTurns(client, 'claude-fable-5-1');
    expect(messages.filter((m) => m.role === 'assistant').every((m) => (m.content as Anthropic.ContentBlock[])[0]?.type === 'thinking')).toBe(true);
    await client.messages.create({ ...base, model: 'claude-fable-5-1', messages: [...messages, { role: 'user', content: 'four' }] });
    expect(server.rejections).toEqual([]);
  });

  it('rejects an edited system prompt, tools list or earlier message with the documented 400, naming what changed', async () => {
    const client = await start();
    const messages = await threeTurns(client, 'claude-fable-5-1');
    const next = [...messages, { role: 'user' as const, content: 'four' }];
    const system = await rejection(client.messages.create({ ...base, system: 'You are a careful coding agent.', model: 'claude-fable-5-1', messages: next }));
    expect(system).toBe(`messages.1.content.0: ${BOUND}${NEEDS_HEADER} The \`system\` prompt differs from when the block was created.`);
    const tools = await rejection(client.messages.create({ ...base, tools: [tool, { ...tool, name: 'refresh_resource' }], model: 'claude-fable-5-1', messages: next }));
    expect(tools).toContain('The `tools` list differs');
    const edited = structuredClone(next);
    edited[2] = { role: 'user', content: 'TWO' };
    const earlier = await rejection(client.messages.create({ ...base, model: 'claude-fable-5-1', messages: edited }));
    expect(earlier).toBe(`messages.3.content.0: ${BOUND}${NEEDS_HEADER} A message before the block differs from when the block was created.`);
    expect(server.rejections.map((r) => r.status)).toEqual([400, 400, 400]);
  });

  it('ignores JSON key order and cache_control markers', async () => {
    const client = await start();
    const messages = await threeTurns(client, 'claude-opus-5-5');
    const reordered: Anthropic.Tool = { input_schema: { required: ['path'], properties: { path: { type: 'string' } }, type: 'object' }, description: tool.description!, name: tool.name, cache_control: { type: 'ephemeral' } };
    const marked = structuredClone(messages);
    marked[0] = { role: 'user', content: [{ type: 'text', text: 'one', cache_control: { type: 'ephemeral' } }] };
    await client.messages.create({ ...base, tools: [reordered], system: [{ type: 'text', text: base.system, cache_control: { type: 'ephemeral' } }], model: 'claude-opus-5-5', messages: [...marked, { role: 'user', content: 'four' }] });
    expect(server.rejections).toEqual([]);
  });

  it('accepts thinking trimmed from the front of the chain and rejects a gap', async () => {
    const client = await start();
    const messages = await threeTurns(client, 'claude-sonnet-5-5');
    const withoutThinking = (m: Anthropic.MessageParam): Anthropic.MessageParam => ({ role: 'assistant', content: (m.content as Anthropic.ContentBlock[]).filter((b) => b.type !== 'thinking') });
    const front = messages.map((m, i) => (i === 1 ? withoutThinking(m) : m));
    await client.messages.create({ ...base, model: 'claude-sonnet-5-5', messages: [...front, { role: 'user', content: 'four' }] });
    expect(server.rejections).toEqual([]);
    const gap = messages.map((m, i) => (i === 3 ? withoutThinking(m) : m));
    const message = await rejection(client.messages.create({ ...base, model: 'claude-sonnet-5-5', messages: [...gap, { role: 'user', content: 'four' }] }));
    expect(message).toBe(`messages.5.content.0: ${BOUND}${NEEDS_HEADER} The thinking block before it is missing or out of order.`);
  });

  it('rejects a thinking block moved ahead of the tool call it followed (think, call, think, call stored by kind)', async () => {
    const client = await start();
    server.enqueueReply({
      blocks: [
        { type: 'thinking' },
        { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } },
        { type: 'thinking' },
        { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'b' } },
      ],
    });
    const first = await client.messages.create({ ...base, model: 'claude-haiku-5-5', messages: [{ role: 'user', content: 'read both' }] });
    const results = { role: 'user' as const, content: ['toolu_1', 'toolu_2'].map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'x' })) };
    await client.messages.create({ ...base, model: 'claude-haiku-5-5', messages: [{ role: 'user', content: 'read both' }, { role: 'assistant', content: first.content }, results] });
    expect(server.rejections).toEqual([]);
    const [t1, u1, t2, u2] = first.content;
    const byKind = [t1, t2, u1, u2] as Anthropic.ContentBlock[];
    const message = await rejection(client.messages.create({ ...base, model: 'claude-haiku-5-5', messages: [{ role: 'user', content: 'read both' }, { role: 'assistant', content: byKind }, results] }));
    expect(message).toMatch(/^messages\.1\.content\.1: Invalid `signature` in `thinking` block\. The block is bound to a different conversation\./);
  });

  it('with prefix_mismatch_behavior "drop_block" and the beta header, drops the failing block and every later one and reports them on message_start', async () => {
    const client = await start();
    const messages = await threeTurns(client, 'claude-fable-5-1');
    const edited = structuredClone(messages);
    edited[2] = { role: 'user', content: 'TWO' };
    const stream = client.beta.messages.stream({
      ...base,
      model: 'claude-fable-5-1',
      betas: [BINDING],
      thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } },
      messages: [...edited, { role: 'user', content: 'four' }],
    });
    let started: unknown;
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') started = event.message;
    });
    await stream.finalMessage();
    expect((started as { input_transformations?: unknown }).input_transformations).toEqual([
      { type: 'thinking_dropped', path: 'messages.3.content.0', reason: 'prefix_binding_mismatch' },
      { type: 'thinking_dropped', path: 'messages.5.content.0', reason: 'prefix_binding_mismatch' },
    ]);
    expect(server.requests.at(-1)?.headers['anthropic-beta']).toContain(BINDING);
    expect(server.rejections).toEqual([]);
  });

  it('refuses block_binding without the beta header, and leaves the header sentence out when it is sent', async () => {
    const client = await start();
    const messages = await threeTurns(client, 'claude-fable-5-1');
    const edited = [...messages, { role: 'user' as const, content: 'four' }];
    const thinking = { type: 'adaptive' as const, block_binding: { prefix_mismatch_behavior: 'drop_block' as const } };
    expect(await rejection(client.messages.create({ ...base, model: 'claude-fable-5-1', thinking, messages: edited } as never))).toBe(
      'thinking.adaptive.block_binding: Extra inputs are not permitted',
    );
    const message = await rejection(
      client.beta.messages.create({ ...base, system: 'changed', model: 'claude-fable-5-1', betas: [BINDING], thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'error' } }, messages: edited }),
    );
    expect(message).toBe(`messages.1.content.0: ${BOUND} The \`system\` prompt differs from when the block was created.`);
  });

  it('answers a tampered signature with the plain 400 on every model, and runs only that check on older models', async () => {
    const client = await start();
    for (const model of ['claude-fable-5-1', 'claude-opus-4-8']) {
      const messages = await threeTurns(client, model);
      const tampered = structuredClone(messages);
      const block = (tampered[1]?.content as Anthropic.ThinkingBlock[])[0] as Anthropic.ThinkingBlock;
      block.signature = `${block.signature.slice(0, -4)}AAAA`;
      expect(await rejection(client.messages.create({ ...base, model, messages: [...tampered, { role: 'user', content: 'four' }] }))).toBe(
        'messages.1.content.0: Invalid `signature` in `thinking` block',
      );
    }
    const older = await threeTurns(client, 'claude-opus-4-8');
    await client.messages.create({ ...base, system: 'rebuilt every request', model: 'claude-opus-4-8', messages: [...older, { role: 'user', content: 'four' }] });
    expect(server.rejections).toHaveLength(2);
  });

  it('on a legacy account lets an edited prefix through, reporting thinking_mismatch_allowed under the beta header', async () => {
    const client = await start({ account: 'legacy' });
    const messages = await threeTurns(client, 'claude-fable-5-1');
    const reply = await client.beta.messages.create({ ...base, system: 'changed', model: 'claude-fable-5-1', betas: [BINDING], messages: [...messages, { role: 'user', content: 'four' }] });
    expect(reply.input_transformations).toEqual([
      { type: 'thinking_mismatch_allowed', path: 'messages.1.content.0', reason: 'prefix_binding_mismatch' },
      { type: 'thinking_mismatch_allowed', path: 'messages.3.content.0', reason: 'prefix_binding_mismatch' },
      { type: 'thinking_mismatch_allowed', path: 'messages.5.content.0', reason: 'prefix_binding_mismatch' },
    ]);
    expect(server.rejections).toEqual([]);
  });

  it('drops a newer model\'s thinking when the conversation moves to an older model (model binding)', async () => {
    const client = await start();
    const messages = await threeTurns(client, 'claude-fable-5-1');
    const reply = await client.beta.messages.create({ ...base, model: 'claude-opus-5', betas: [BINDING], messages: [...messages, { role: 'user', content: 'four' }] });
    expect(reply.input_transformations?.map((t) => [t.path, t.reason])).toEqual([
      ['messages.1.content.0', 'model_binding_mismatch'],
      ['messages.3.content.0', 'model_binding_mismatch'],
      ['messages.5.content.0', 'model_binding_mismatch'],
    ]);
  });
});
