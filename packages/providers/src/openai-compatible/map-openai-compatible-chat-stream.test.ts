import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../openai/openai-types.ts';
import type { StreamEvent } from '../provider.ts';
import { mapOpenAICompatibleChatStream } from './map-openai-compatible-chat-stream.ts';

const chunk = (delta: Record<string, unknown>, finish: string | null = null, index = 0) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index, delta, finish_reason: finish }],
});

async function run(chunks: unknown[]): Promise<StreamEvent[]> {
  async function* source(): AsyncGenerator<ChatCompletionChunk> {
    for (const item of chunks) yield item as ChatCompletionChunk;
  }
  const out: StreamEvent[] = [];
  for await (const event of mapOpenAICompatibleChatStream(source(), 'ollama')) out.push(event);
  return out;
}

describe('mapOpenAICompatibleChatStream', () => {
  it('reads reasoning_content and refusals, ignores other choices, and names id-less tool calls by index', async () => {
    const events = await run([
      chunk({ reasoning_content: 'think' }),
      chunk({ content: 'other choice' }, null, 1),
      chunk({ refusal: 'I cannot.' }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
      chunk({}, 'tool_calls'),
    ]);

    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'think' },
      { type: 'text-delta', text: 'I cannot.' },
      { type: 'tool-call', id: 'call_0', name: 'f', arguments: { a: 1 } },
      { type: 'finish', reason: 'tool-calls', usage: {} },
    ]);
  });

  it('fails with stream_incomplete when no finish_reason arrived, naming the vendor', async () => {
    await expect(run([chunk({ content: 'half' })])).rejects.toMatchObject({
      code: 'stream_incomplete',
      provider: 'ollama',
      message: 'the ollama response stream ended before a finish_reason (connection cut?)',
    });
  });

  it('rejects malformed tool arguments', async () => {
    await expect(run([chunk({ tool_calls: [{ index: 0, id: 'x', function: { name: 'f', arguments: 'nope' } }] }), chunk({}, 'tool_calls')])).rejects.toMatchObject({
      code: 'invalid_response',
    });
  });
});
