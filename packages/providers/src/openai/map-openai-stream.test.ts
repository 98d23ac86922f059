import { ProviderError } from '@jp/core';
import { openaiResponsesEvents } from '@jp/test-server';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../provider.ts';
import { mapOpenAIStream, mapOpenAIUsage } from './map-openai-stream.ts';
import type { ResponseStreamEvent } from './openai-types.ts';

async function* from(events: unknown[]): AsyncGenerator<ResponseStreamEvent> {
  for (const event of events) yield event as ResponseStreamEvent;
}

async function run(events: unknown[]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of mapOpenAIStream(from(events))) out.push(event);
  return out;
}

const wire = (...args: Parameters<typeof openaiResponsesEvents>) => openaiResponsesEvents(...args).map((event) => event.data);

describe('mapOpenAIStream', () => {
  it('maps text, reasoning and function calls, then finishes with usage', async () => {
    const events = wire(
      [
        { type: 'reasoning', summary: 'why' },
        { type: 'text', text: ['a', 'b'] },
        { type: 'function_call', callId: 'call_9', name: 'f', arguments: { x: 1 } },
      ],
      { usage: { input_tokens: 50, output_tokens: 9, input_tokens_details: { cached_tokens: 32, cache_write_tokens: 3 } } },
    );

    expect(await run(events)).toEqual([
      { type: 'reasoning-delta', text: 'why' },
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
      { type: 'tool-call', id: 'call_9', name: 'f', arguments: { x: 1 } },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 50, outputTokens: 9, cacheReadTokens: 32, cacheWriteTokens: 3, reasoningTokens: 0 } },
    ]);
  });

  it('rejects function-call arguments that are not a JSON object', async () => {
    const done = { type: 'response.output_item.done', output_index: 0, item: { type: 'function_call', call_id: 'c', name: 'f', arguments: '{"x":' } };
    const array = { ...done, item: { ...done.item, arguments: '[1]' } };

    await expect(run([done])).rejects.toMatchObject({ code: 'invalid_response', message: 'openai sent invalid JSON arguments for tool f' });
    await expect(run([array])).rejects.toMatchObject({ code: 'invalid_response', message: 'openai sent non-object arguments for tool f' });
  });

  it('treats a stream that ends without a final event as cut', async () => {
    const events = wire([{ type: 'text', text: 'partial' }]).slice(0, -1);

    const error = await run(events).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'stream_incomplete', isRetryable: true });
  });

  it('maps usage without cache details to plain counts', () => {
    expect(mapOpenAIUsage(undefined)).toEqual({});
    expect(mapOpenAIUsage({ input_tokens: 1, output_tokens: 2 } as never)).toEqual({ inputTokens: 1, outputTokens: 2 });
  });
});
