import { ProviderError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../provider.ts';
import { mapGoogleStream, mapGoogleUsage, type GoogleStreamChunk } from './map-google-stream.ts';

async function* from(chunks: GoogleStreamChunk[]): AsyncGenerator<GoogleStreamChunk> {
  for (const chunk of chunks) yield chunk;
}

async function collect(chunks: GoogleStreamChunk[]): Promise<{ events: StreamEvent[]; error: unknown }> {
  const events: StreamEvent[] = [];
  let n = 0;
  try {
    for await (const event of mapGoogleStream(from(chunks), { createCallId: () => `gen_${++n}` })) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

const chunk = (parts: object[], finishReason?: string, usageMetadata?: object): GoogleStreamChunk =>
  ({ candidates: [{ content: { role: 'model', parts }, ...(finishReason ? { finishReason } : {}) }], ...(usageMetadata ? { usageMetadata } : {}) }) as GoogleStreamChunk;

describe('mapGoogleStream', () => {
  it('yields text and thought parts in order, then finish with the newest usage', async () => {
    const { events, error } = await collect([
      chunk([{ text: 'Let me think', thought: true }], undefined, { promptTokenCount: 9 }),
      chunk([{ text: 'Hel' }, { text: '' }]),
      chunk([{ text: 'lo' }], 'STOP', { promptTokenCount: 9, candidatesTokenCount: 2, thoughtsTokenCount: 3 }),
    ]);

    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Let me think' },
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
      { type: 'finish', reason: 'stop', usage: { inputTokens: 9, outputTokens: 5, reasoningTokens: 3 } },
    ]);
  });

  it('emits function calls with their ids, generating ids Gemini left out, and finishes with tool-calls', async () => {
    const { events } = await collect([
      chunk([{ functionCall: { id: 'g-1', name: 'refresh_resource', args: { uri: 'file:///a' } } }]),
      chunk([{ functionCall: { name: 'refresh_resource', args: { uri: 'file:///b' } } }, { functionCall: { name: 'noop' } }], 'STOP'),
    ]);

    expect(events).toEqual([
      { type: 'tool-call', id: 'g-1', name: 'refresh_resource', arguments: { uri: 'file:///a' } },
      { type: 'tool-call', id: 'gen_1', name: 'refresh_resource', arguments: { uri: 'file:///b' } },
      { type: 'tool-call', id: 'gen_2', name: 'noop', arguments: {} },
      { type: 'finish', reason: 'tool-calls', usage: {} },
    ]);
  });

  it('throws a retryable stream_incomplete when the stream ends without a finish reason', async () => {
    const { events, error } = await collect([chunk([{ text: 'partial' }])]);

    expect(events).toEqual([{ type: 'text-delta', text: 'partial' }]);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'stream_incomplete', isRetryable: true, provider: 'google' });
  });

  it('ends a blocked prompt as content-filter with a warning', async () => {
    const { events } = await collect([{ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4 } } as GoogleStreamChunk]);

    expect(events).toEqual([
      { type: 'warning', message: 'google blocked the prompt (SAFETY)' },
      { type: 'finish', reason: 'content-filter', usage: { inputTokens: 4 } },
    ]);
  });

  it('rejects function calls with non-object arguments or no name', async () => {
    await expect(collect([chunk([{ functionCall: { name: 'f', args: [1] } }], 'STOP')])).resolves.toMatchObject({
      error: { code: 'invalid_response', message: 'google sent non-object arguments for tool f' },
    });
    await expect(collect([chunk([{ functionCall: { args: {} } }], 'STOP')])).resolves.toMatchObject({ error: { code: 'invalid_response' } });
  });
});

describe('mapGoogleUsage', () => {
  it('keeps the prompt count as reported (cached tokens included), reports cache reads, and counts thinking as output', () => {
    expect(
      mapGoogleUsage({ promptTokenCount: 1200, cachedContentTokenCount: 1000, candidatesTokenCount: 40, thoughtsTokenCount: 60, totalTokenCount: 1300 }),
    ).toEqual({ inputTokens: 1200, outputTokens: 100, cacheReadTokens: 1000, reasoningTokens: 60 });
  });

  it('keeps absent counts absent', () => {
    expect(mapGoogleUsage(undefined)).toEqual({});
    expect(mapGoogleUsage({ candidatesTokenCount: 3 })).toEqual({ outputTokens: 3 });
  });
});
