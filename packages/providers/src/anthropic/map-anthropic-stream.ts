import { ProviderError, type Usage } from '@jp/core';
import type { CallRecord, FinishReason, StreamEvent } from '../provider.ts';
import { callRecord } from './anthropic-call-record.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import type { RawMessageStreamEvent } from './anthropic-types.ts';
import { AnswerLayoutRecorder } from '../shared/answer-layout.ts';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.ts';

interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Later counts (message_delta's are cumulative) replace earlier ones; null leaves them alone. */
function mergeUsage(usage: Usage, wire: WireUsage | null | undefined): Usage {
  if (!wire) return usage;
  const next = { ...usage };
  if (typeof wire.input_tokens === 'number') next.inputTokens = wire.input_tokens;
  if (typeof wire.output_tokens === 'number') next.outputTokens = wire.output_tokens;
  if (typeof wire.cache_read_input_tokens === 'number') next.cacheReadTokens = wire.cache_read_input_tokens;
  if (typeof wire.cache_creation_input_tokens === 'number') next.cacheWriteTokens = wire.cache_creation_input_tokens;
  return next;
}

/**
 * jp's `inputTokens` is every input token of the call, as OpenAI and Gemini count it; Anthropic
 * reports cache reads and writes beside its uncached `input_tokens`, so they are added back.
 */
function totalInput(usage: Usage): Usage {
  if (usage.inputTokens === undefined) return usage;
  return { ...usage, inputTokens: usage.inputTokens + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) };
}

/**
 * The Messages stream → our events: text and thinking deltas as they arrive, each tool call once
 * its `content_block_stop` closes its JSON, and `finish` at `message_stop` with the stop reason
 * and usage (`inputTokens` counts all input, cached or not; cache reads and writes are also given apart).
 * A stream that ends before `message_stop` was cut: that is a retryable `ProviderError`.
 */
export async function* mapAnthropicStream(events: AsyncIterable<RawMessageStreamEvent>): AsyncGenerator<StreamEvent> {
  let usage: Usage = {};
  let reason: FinishReason = 'other';
  const call: CallRecord = {};
  const tools = new Map<number, { id: string; name: string; json: string }>();
  // Thinking blocks are kept whole, signature included, to be sent back as they came (RFD 028),
  // in their place among the answer's text and tool calls (issue V).
  const thinking = new Map<number, { thinking: string; signature: string }>();
  const texts = new Map<number, number>();
  const layout = new AnswerLayoutRecorder();

  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        usage = mergeUsage(usage, event.message.usage);
        Object.assign(call, callRecord(event.message));
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'tool_use') tools.set(event.index, { id: block.id, name: block.name, json: '' });
        else if (block.type === 'text') {
          texts.set(event.index, block.text.length);
          if (block.text !== '') yield { type: 'text-delta', text: block.text };
        }
        else if (block.type === 'thinking') {
          thinking.set(event.index, { thinking: block.thinking, signature: block.signature ?? '' });
          if (block.thinking !== '') yield { type: 'reasoning-delta', text: block.thinking };
        } else if (block.type === 'redacted_thinking') {
          yield { type: 'reasoning-delta', text: '[redacted thinking]\n' };
          layout.reasoning({ type: 'redacted_thinking', data: block.data });
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta') {
          texts.set(event.index, (texts.get(event.index) ?? 0) + delta.text.length);
          yield { type: 'text-delta', text: delta.text };
        }
        else if (delta.type === 'thinking_delta') {
          const block = thinking.get(event.index);
          if (block) block.thinking += delta.thinking;
          yield { type: 'reasoning-delta', text: delta.thinking };
        } else if (delta.type === 'signature_delta') {
          const block = thinking.get(event.index);
          if (block) block.signature += delta.signature;
        }
        else if (delta.type === 'input_json_delta') {
          const tool = tools.get(event.index);
          if (tool) tool.json += delta.partial_json;
        }
        break;
      }
      case 'content_block_stop': {
        const block = thinking.get(event.index);
        if (block) {
          thinking.delete(event.index);
          // A block with empty thinking is kept too: its signature is what counts (issue V).
          if (block.signature !== '') layout.reasoning({ type: 'thinking', ...block });
        }
        const length = texts.get(event.index);
        if (length !== undefined) {
          texts.delete(event.index);
          layout.text(length);
        }
        const tool = tools.get(event.index);
        if (tool) {
          tools.delete(event.index);
          layout.call(tool.id);
          yield { type: 'tool-call', id: tool.id, name: tool.name, arguments: parseToolArguments(tool.json, tool.name, 'anthropic') };
        }
        break;
      }
      case 'message_delta':
        reason = mapAnthropicFinishReason(event.delta.stop_reason);
        usage = mergeUsage(usage, event.usage);
        break;
      case 'message_stop':
        for (const item of layout.finish()) yield { type: 'reasoning-opaque', provider: 'anthropic', item };
        yield { type: 'finish', reason, usage: totalInput(usage), ...(Object.keys(call).length > 0 ? { call } : {}) };
        return;
    }
  }
  throw new ProviderError('anthropic', 'the anthropic response stream ended before message_stop (connection cut?)', {
    code: 'stream_incomplete',
    isRetryable: true,
  });
}
