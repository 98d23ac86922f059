import type { ConversationEvent } from '@jp/core';
import { anthropicStreamEvents, sseResponse } from '@jp/test-server';
import { describe, expect, it } from 'vitest';
import { collect } from '../__fixtures__/collect-stream.ts';
import { chatResponse, toolCall, toolResult, turn } from '../__fixtures__/conversation.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import { createAnthropicProvider } from './anthropic-provider.ts';
import { convertToAnthropicRequest } from './convert-to-anthropic-request.ts';

const server = useWireServer();
const timestamp = '2026-01-01T00:00:00.000Z';
const THINKING = { type: 'thinking', thinking: 'Read the file first.', signature: 'sig/abc+==' };
const REDACTED = { type: 'redacted_thinking', data: 'EncryptedBlob==' };
const reasoningOf = (provider: string, items: Record<string, unknown>[]): ConversationEvent => ({
  type: 'chat_response',
  timestamp,
  reasoning: 'Read the file first.',
  opaque: { provider, items },
});

describe('anthropic reasoning, stored and sent back (RFD 028)', () => {
  it('a streamed thinking block comes back whole with its signature; a redacted block as what it is', async () => {
    const blocks = [
      { type: 'thinking', thinking: ['Read ', 'the file first.'], signature: 'sig/abc+==' },
      { type: 'redacted_thinking', data: 'EncryptedBlob==' },
      { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } },
    ] as const;
    server.enqueue(sseResponse(anthropicStreamEvents(blocks, { stopReason: 'tool_use' })));
    const provider = createAnthropicProvider({ apiKey: 'k', baseUrl: server.url });

    const { events, error } = await collect(provider.stream({ model: 'claude-test', events: turn('go'), reasoning: 'low' }));

    expect(error).toBeUndefined();
    expect(events.filter((event) => event.type === 'reasoning-delta').map((event) => event.text)).toEqual(['Read ', 'the file first.', '[redacted thinking]\n']);
    expect(events.filter((event) => event.type === 'reasoning-opaque')).toEqual([
      { type: 'reasoning-opaque', provider: 'anthropic', item: THINKING },
      { type: 'reasoning-opaque', provider: 'anthropic', item: REDACTED },
      // Where the tool call sat among them, so the answer goes back in its streamed order (issue V).
      { type: 'reasoning-opaque', provider: 'anthropic', item: { type: 'jp_call', id: 'toolu_1' } },
    ]);
  });

  it("replays the thinking blocks before the tool call they led to, byte for byte", () => {
    const events = turn('go', [], reasoningOf('anthropic', [THINKING, REDACTED]), toolCall('toolu_1', 'read', { path: 'a' }), toolResult('toolu_1', [{ type: 'text', text: 'A' }]));
    const { request } = convertToAnthropicRequest({ model: 'claude-test', events, reasoning: 'low' });
    expect(request.messages[1]).toEqual({ role: 'assistant', content: [THINKING, REDACTED, { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } }] });
    expect(JSON.stringify(request.messages[1]!.content[0])).toBe(JSON.stringify(THINKING));
  });

  it('keeps earlier turns\' thinking in later requests, so the prefix stays the same bytes', () => {
    const first = [...turn('go', [], reasoningOf('anthropic', [THINKING]), chatResponse('done'))];
    const second = [...first, ...turn('again')];
    const a = convertToAnthropicRequest({ model: 'claude-test', events: first, reasoning: 'low' }).request.messages;
    const b = convertToAnthropicRequest({ model: 'claude-test', events: second, reasoning: 'low' }).request.messages;
    const strip = (value: unknown) => JSON.stringify(value, (key, v) => (key === 'cache_control' ? undefined : v));
    expect(strip(b.slice(0, a.length))).toBe(strip(a));
    expect(strip(b[1])).toContain('sig/abc+==');
  });

  it("leaves out another provider's reasoning and older reasoning without opaque data, text included", () => {
    const foreign = turn('go', [], reasoningOf('openai', [{ type: 'reasoning', id: 'rs_1', encrypted_content: 'x' }]), chatResponse('done'));
    const old: ConversationEvent[] = turn('go', [], { type: 'chat_response', timestamp, reasoning: 'old thoughts' }, chatResponse('done'));
    for (const events of [foreign, old]) {
      const body = JSON.stringify(convertToAnthropicRequest({ model: 'claude-test', events }).request);
      expect(body).not.toContain('Read the file first.');
      expect(body).not.toContain('old thoughts');
      expect(body).not.toContain('encrypted_content');
      expect(body).toContain('done');
    }
  });
});

describe('an answer goes back in the order it streamed (issue V)', () => {
  const T1 = { type: 'thinking', thinking: 'First read a.', signature: 'sig-1' };
  const T2 = { type: 'thinking', thinking: '', signature: 'sig-2' };

  it('thinks, calls, thinks again and calls again: the stream records where each block sat', async () => {
    const blocks = [
      { type: 'thinking', thinking: ['First read a.'], signature: 'sig-1' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } },
      { type: 'thinking', thinking: [], signature: 'sig-2' },
      { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: 'b' } },
    ] as const;
    server.enqueue(sseResponse(anthropicStreamEvents(blocks, { stopReason: 'tool_use' })));
    const { events } = await collect(createAnthropicProvider({ apiKey: 'k', baseUrl: server.url }).stream({ model: 'claude-test', events: turn('go') }));
    expect(events.filter((event) => event.type === 'reasoning-opaque').map((event) => event.item)).toEqual([
      T1, { type: 'jp_text', length: 8 }, { type: 'jp_call', id: 'toolu_1' }, T2, { type: 'jp_call', id: 'toolu_2' },
    ]);
  });

  it('replays thinking, text and calls in that order, an empty thinking block included', () => {
    const layout = [T1, { type: 'jp_text', length: 8 }, { type: 'jp_call', id: 'toolu_1' }, T2, { type: 'jp_call', id: 'toolu_2' }];
    const events = [
      ...turn('go', [], reasoningOf('anthropic', layout), { type: 'chat_response', timestamp, message: 'Reading.' }),
      toolCall('toolu_1', 'read', { path: 'a' }),
      toolCall('toolu_2', 'read', { path: 'b' }),
      toolResult('toolu_1', [{ type: 'text', text: 'A' }]),
      toolResult('toolu_2', [{ type: 'text', text: 'B' }]),
    ];
    const { request } = convertToAnthropicRequest({ model: 'claude-test', events });
    expect(request.messages[1]!.content).toEqual([
      T1,
      { type: 'text', text: 'Reading.' },
      { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a' } },
      T2,
      { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: 'b' } },
    ]);
  });

  it('an answer stored before the order was recorded goes back as before: thinking, text, calls', () => {
    const events = [...turn('go', [], reasoningOf('anthropic', [T1, T2]), { type: 'chat_response', timestamp, message: 'Hi.' }), toolCall('toolu_1', 'read', {}), toolResult('toolu_1', [])];
    const { request } = convertToAnthropicRequest({ model: 'claude-test', events });
    expect((request.messages[1]!.content as Array<{ type: string }>).map((block) => block.type)).toEqual(['thinking', 'thinking', 'text', 'tool_use']);
  });
});
