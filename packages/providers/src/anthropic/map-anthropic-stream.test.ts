import { ProviderError } from '@jp/core';
import { anthropicStreamEvents } from '@jp/test-server';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../provider.ts';
import type { RawMessageStreamEvent } from './anthropic-types.ts';
import { mapAnthropicStream } from './map-anthropic-stream.ts';

async function* fromArray(events: readonly unknown[]): AsyncGenerator<RawMessageStreamEvent> {
  for (const event of events) yield event as RawMessageStreamEvent;
}

async function run(events: readonly unknown[]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of mapAnthropicStream(fromArray(events))) out.push(event);
  return out;
}

/** The wire server's event data, as the SDK would hand it over. */
const wire = (...args: Parameters<typeof anthropicStreamEvents>) =>
  anthropicStreamEvents(...args)
    .filter((event) => event.event !== 'ping')
    .map((event) => event.data);

describe('mapAnthropicStream', () => {
  it('emits several tool calls in block order with usage from message_delta overriding message_start', async () => {
    const events = wire(
      [
        { type: 'tool_use', id: 't1', name: 'a', input: { x: 1 } },
        { type: 'tool_use', id: 't2', name: 'b', input: {} },
      ],
      { stopReason: 'tool_use', usage: { input_tokens: 5, output_tokens: 9 } },
    );

    expect(await run(events)).toEqual([
      { type: 'tool-call', id: 't1', name: 'a', arguments: { x: 1 } },
      { type: 'tool-call', id: 't2', name: 'b', arguments: {} },
      { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 5, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0 }, call: { id: expect.stringMatching(/^msg_/) } },
    ]);
  });

  it('rejects tool arguments that are not a JSON object', async () => {
    const events = [
      { type: 'message_start', message: { usage: { input_tokens: 1, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 't', name: 'calc', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '[1, 2' } },
      { type: 'content_block_stop', index: 0 },
    ];

    const error = await run(events).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'invalid_response', message: 'anthropic sent invalid JSON arguments for tool calc' });
  });

  it('fails as stream_incomplete when message_stop never comes', async () => {
    const events = wire([{ type: 'text', text: ['partial'] }]).slice(0, -1);

    const collected: StreamEvent[] = [];
    const error = await (async () => {
      for await (const event of mapAnthropicStream(fromArray(events))) collected.push(event);
    })().catch((caught: unknown) => caught);

    expect(collected).toEqual([{ type: 'text-delta', text: 'partial' }]);
    expect(error).toMatchObject({ code: 'stream_incomplete', isRetryable: true });
  });
});
