import type { ConversationEvent } from '@jp/core';
import { googleStreamChunks, sseResponse } from '@jp/test-server';
import { describe, expect, it } from 'vitest';
import { collect } from '../__fixtures__/collect-stream.ts';
import { chatResponse, toolCall, toolResult, turn } from '../__fixtures__/conversation.ts';
import { useWireServer } from '../__fixtures__/use-wire-server.ts';
import { convertToOpenAIRequest } from '../openai/convert-to-openai-request.ts';
import { convertToGoogleRequest, GOOGLE_SKIP_THOUGHT_SIGNATURE } from './convert-to-google-request.ts';
import { createGoogleProvider } from './google-provider.ts';

const server = useWireServer();
const timestamp = '2026-01-01T00:00:00.000Z';
const signatures = (items: Record<string, unknown>[]): ConversationEvent => ({ type: 'chat_response', timestamp, reasoning: '', opaque: { provider: 'google', items } });

describe('gemini thought signatures, stored and sent back (RFD 028)', () => {
  it('keeps the signature of a function call with the call’s id, and one on a text part', async () => {
    server.enqueue(
      sseResponse(
        googleStreamChunks([
          { type: 'thought', text: 'Plan.' },
          { type: 'functionCall', id: 'call_1', name: 'read', args: { path: 'a' }, thoughtSignature: 'c2lnLTE=' },
          { type: 'text', text: 'Reading.', thoughtSignature: 'c2lnLTI=' },
        ]),
      ),
    );
    const provider = createGoogleProvider({ apiKey: 'k', baseUrl: server.url });
    const { events, error } = await collect(provider.stream({ model: 'gemini-3-pro-preview', events: turn('go'), reasoning: 'high' }));
    expect(error).toBeUndefined();
    expect(events.filter((event) => event.type === 'reasoning-opaque')).toEqual([
      { type: 'reasoning-opaque', provider: 'google', item: { functionCallId: 'call_1', thoughtSignature: 'c2lnLTE=' } },
      { type: 'reasoning-opaque', provider: 'google', item: { text: true, thoughtSignature: 'c2lnLTI=' } },
    ]);
  });

  it('sends each stored signature back on its part; the validator bypass only for a call without one', () => {
    const events = turn(
      'go',
      [],
      signatures([{ functionCallId: 'call_1', thoughtSignature: 'c2lnLTE=' }]),
      toolCall('call_1', 'read', { path: 'a' }),
      toolResult('call_1', [{ type: 'text', text: 'A' }]),
      signatures([{ text: true, thoughtSignature: 'c2lnLTI=' }]),
      chatResponse('done'),
    );
    const withUnsigned = [...events, ...turn('again', [], toolCall('call_2', 'read', { path: 'b' }), toolResult('call_2', [{ type: 'text', text: 'B' }]), chatResponse('ok'))];
    const { contents } = convertToGoogleRequest({ model: 'gemini-3-pro-preview', events: withUnsigned }).request;
    expect(contents[1]).toEqual({ role: 'model', parts: [{ functionCall: { id: 'call_1', name: 'read', args: { path: 'a' } }, thoughtSignature: 'c2lnLTE=' }] });
    expect(contents[3]).toEqual({ role: 'model', parts: [{ text: 'done', thoughtSignature: 'c2lnLTI=' }] });
    const unsigned = contents.flatMap((content) => content.parts ?? []).find((part) => part.functionCall?.id === 'call_2');
    expect(unsigned?.thoughtSignature).toBe(GOOGLE_SKIP_THOUGHT_SIGNATURE);
  });

  it('keeps the bytes of earlier contents in later requests', () => {
    const first = turn('go', [], signatures([{ functionCallId: 'call_1', thoughtSignature: 'c2lnLTE=' }]), toolCall('call_1', 'read', {}), toolResult('call_1', [{ type: 'text', text: 'A' }]), chatResponse('done'));
    const a = convertToGoogleRequest({ model: 'g', events: first }).request.contents;
    const b = convertToGoogleRequest({ model: 'g', events: [...first, ...turn('again')] }).request.contents;
    expect(JSON.stringify(b.slice(0, a.length))).toBe(JSON.stringify(a));
  });

  it('sends no signature to another provider', () => {
    const events = turn('go', [], signatures([{ functionCallId: 'call_1', thoughtSignature: 'c2lnLTE=' }]), toolCall('call_1', 'read', {}), toolResult('call_1', [{ type: 'text', text: 'A' }]), chatResponse('done'));
    expect(JSON.stringify(convertToOpenAIRequest({ model: 'm', events }).request)).not.toContain('c2lnLTE=');
  });
});
