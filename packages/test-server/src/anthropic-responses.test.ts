import { describe, expect, it } from 'vitest';
import {
  anthropicErrorEvent,
  anthropicErrorResponse,
  anthropicStreamEvents,
  anthropicTextStream,
  anthropicToolUseStream,
  splitIntoDeltas,
} from './anthropic-responses.mjs';

const types = (events: { event?: string | undefined }[]) => events.map((event) => event.event);

describe('anthropic answers', () => {
  it('splits text into word deltas that join back to the text', () => {
    expect(splitIntoDeltas('Hello there,  world!\n')).toEqual(['Hello ', 'there,  ', 'world!\n']);
    expect(splitIntoDeltas('')).toEqual([]);
    expect(splitIntoDeltas('   ')).toEqual(['   ']);
  });

  it('emits the complete Messages streaming sequence for a text answer', () => {
    const events = anthropicStreamEvents([{ type: 'text', text: ['Hel', 'lo'] }], {
      usage: { input_tokens: 3, output_tokens: 2, cache_read_input_tokens: 1 },
      stopReason: 'max_tokens',
    });

    expect(types(events)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[3]?.data).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } });
    expect(events[6]?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: { input_tokens: 3, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 1 },
    });
  });

  it('frames a text stream as SSE with one event per chunk', () => {
    const response = anthropicTextStream('ok 1');

    expect(response.headers).toEqual({ 'content-type': 'text/event-stream' });
    expect(response.chunks).toHaveLength(8);
    expect(response.chunks[3]).toBe(
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok "}}\n\n',
    );
    expect(response.chunks.at(-1)).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  });

  it('streams tool calls with their input JSON in fragments that join to the input', () => {
    const response = anthropicToolUseStream({ id: 'toolu_1', name: 'refresh_resource', input: { uri: 'file:///a' } }, { text: 'Let me look.' });
    const data = response.chunks.map((chunk) => JSON.parse(chunk.split('data: ')[1] ?? '{}') as Record<string, any>);

    const start = data.find((event) => event.type === 'content_block_start' && event.content_block.type === 'tool_use');
    expect(start).toMatchObject({ index: 1, content_block: { id: 'toolu_1', name: 'refresh_resource', input: {} } });
    const json = data
      .filter((event) => event.delta?.type === 'input_json_delta')
      .map((event) => event.delta.partial_json as string);
    expect(json).toHaveLength(2);
    expect(JSON.parse(json.join(''))).toEqual({ uri: 'file:///a' });
    expect(data.find((event) => event.type === 'message_delta')?.delta.stop_reason).toBe('tool_use');
  });

  it('builds Anthropic error bodies with the type matching the status', () => {
    expect(anthropicErrorResponse(429, { headers: { 'retry-after': '3' } })).toEqual({
      type: 'json',
      status: 429,
      headers: { 'retry-after': '3' },
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'wire-server: scripted 429 rate_limit_error' } },
    });
    expect(anthropicErrorResponse(401).body).toMatchObject({ error: { type: 'authentication_error' } });
    expect(anthropicErrorEvent()).toEqual({ event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
  });
});
