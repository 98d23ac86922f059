import { lookupModel } from '../catalog/lookup-model.ts';
import type { ConversationEvent } from '@jp/core';
import { openaiResponsesEvents, sseResponse } from '@jp/test-server';
import { describe, expect, it } from 'vitest';
import { collect } from '../__fixtures__/collect-stream.ts';
import { chatResponse, toolCall, toolResult, turn } from '../__fixtures__/conversation.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import { convertToAnthropicRequest } from '../anthropic/convert-to-anthropic-request.ts';
import { convertToGoogleRequest } from '../google/convert-to-google-request.ts';
import { convertToOpenAIRequest } from './convert-to-openai-request.ts';
import { createOpenAIProvider } from './openai-provider.ts';

const server = useWireServer();
const timestamp = '2026-01-01T00:00:00.000Z';
const ITEM = { type: 'reasoning', id: 'rs_0', summary: [{ type: 'summary_text', text: 'Read it first.' }], encrypted_content: 'gAAAAB-opaque==' };
const reasoningOf = (provider: string, items: Record<string, unknown>[]): ConversationEvent => ({ type: 'chat_response', timestamp, reasoning: 'Read it first.', opaque: { provider, items } });

describe('openai reasoning items, stored and sent back (RFD 028)', () => {
  it('asks for the encrypted content with reasoning on, and streams the item back as opaque data', async () => {
    server.enqueue(
      sseResponse(
        openaiResponsesEvents([
          { type: 'reasoning', summary: 'Read it first.', encryptedContent: 'gAAAAB-opaque==' },
          { type: 'function_call', callId: 'call_1', name: 'read', arguments: { path: 'a' } },
        ]),
      ),
    );
    const provider = createOpenAIProvider({ apiKey: 'k', baseUrl: `${server.url}/v1` });
    const { events, error } = await collect(provider.stream({ model: 'gpt-5.1', modelInfo: lookupModel('openai', 'gpt-5.1'), events: turn('go'), reasoning: 'low', showReasoning: true }));
    expect(error).toBeUndefined();
    expect(server.requests.at(-1)!.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'low', summary: 'auto' } });
    expect(events.filter((event) => event.type === 'reasoning-opaque')).toEqual([
      { type: 'reasoning-opaque', provider: 'openai', item: ITEM },
      { type: 'reasoning-opaque', provider: 'openai', item: { type: 'jp_call', id: 'call_1' } },
    ]);
    expect(events.filter((event) => event.type === 'reasoning-delta').map((event) => event.text).join('')).toBe('Read it first.');
  });

  it('does not ask for encrypted content with reasoning off or unset; an item without it is not kept', async () => {
    expect(convertToOpenAIRequest({ model: 'm', events: turn('go'), reasoning: 'off' }).request.include).toBeUndefined();
    expect(convertToOpenAIRequest({ model: 'm', events: turn('go') }).request.include).toBeUndefined();
    server.enqueue(sseResponse(openaiResponsesEvents([{ type: 'reasoning', summary: 'x' }, { type: 'text', text: 'ok' }])));
    const { events } = await collect(createOpenAIProvider({ apiKey: 'k', baseUrl: `${server.url}/v1` }).stream({ model: 'gpt-test', events: turn('go') }));
    expect(events.some((event) => event.type === 'reasoning-opaque')).toBe(false);
  });

  it('replays the item before the call it led to, byte for byte, and keeps it in later requests', () => {
    const first = turn('go', [], reasoningOf('openai', [ITEM]), toolCall('call_1', 'read', { path: 'a' }), toolResult('call_1', [{ type: 'text', text: 'A' }]), chatResponse('done'));
    const { request } = convertToOpenAIRequest({ model: 'gpt-test', events: first, reasoning: 'low' });
    expect(request.input.slice(1, 3)).toEqual([ITEM, { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"path":"a"}' }]);
    expect(JSON.stringify(request.input[1])).toBe(JSON.stringify(ITEM));
    const next = convertToOpenAIRequest({ model: 'gpt-test', events: [...first, ...turn('again')], reasoning: 'low' }).request;
    expect(JSON.stringify(next.input.slice(0, request.input.length))).toBe(JSON.stringify(request.input));
  });

  it('leaves OpenAI items out of other providers’ requests, and other providers’ data out of its own', () => {
    const ours = turn('go', [], reasoningOf('openai', [ITEM]), chatResponse('done'));
    for (const body of [JSON.stringify(convertToAnthropicRequest({ model: 'c', events: ours }).request), JSON.stringify(convertToGoogleRequest({ model: 'g', events: ours }).request)]) {
      expect(body).not.toContain('gAAAAB-opaque==');
      expect(body).not.toContain('Read it first.');
      expect(body).toContain('done');
    }
    const foreign = turn('go', [], reasoningOf('anthropic', [{ type: 'thinking', thinking: 'Read it first.', signature: 'sig' }]), chatResponse('done'));
    const body = JSON.stringify(convertToOpenAIRequest({ model: 'gpt-test', events: foreign }).request);
    expect(body).not.toContain('sig');
    expect(body).not.toContain('Read it first.');
    expect(body).toContain('done');
  });
});

describe('reasoning items go back each before its own item (issue V)', () => {
  it('reasons, calls, reasons again and calls again: replayed in that order, not both items first', () => {
    const rs1 = { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'E1' };
    const rs2 = { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'E2' };
    const layout = [rs1, { type: 'jp_call', id: 'call_1' }, rs2, { type: 'jp_call', id: 'call_2' }];
    const events = [
      ...turn('go', [], reasoningOf('openai', layout), toolCall('call_1', 'read', { path: 'a' }), toolCall('call_2', 'read', { path: 'b' })),
      toolResult('call_1', [{ type: 'text', text: 'A' }]),
      toolResult('call_2', [{ type: 'text', text: 'B' }]),
    ];
    const { request } = convertToOpenAIRequest({ model: 'gpt-5.1', events });
    expect(request.input.map((item) => ('id' in item && item.type === 'reasoning' ? item.id : 'call_id' in item ? `${item.type}:${item.call_id}` : item.type))).toEqual([
      'message', 'rs_1', 'function_call:call_1', 'rs_2', 'function_call:call_2', 'function_call_output:call_1', 'function_call_output:call_2',
    ]);
  });
});
