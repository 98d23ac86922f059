import { ProviderError, type Usage } from '@jp/core';
import type { StreamEvent } from '../provider.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import { AnswerLayoutRecorder } from '../shared/answer-layout.ts';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.ts';
import { streamErrorToProviderError } from './openai-error.ts';
import type { ResponseStreamEvent, ResponseUsage } from './openai-types.ts';

/** Responses usage → ours. `input_tokens` counts cached tokens too (OpenAI's convention, kept as reported). */
export function mapOpenAIUsage(usage: ResponseUsage | null | undefined): Usage {
  if (!usage) return {};
  const result: Usage = {};
  if (typeof usage.input_tokens === 'number') result.inputTokens = usage.input_tokens;
  if (typeof usage.output_tokens === 'number') result.outputTokens = usage.output_tokens;
  const details = usage.input_tokens_details as Partial<ResponseUsage.InputTokensDetails> | null | undefined;
  if (typeof details?.cached_tokens === 'number') result.cacheReadTokens = details.cached_tokens;
  if (typeof details?.cache_write_tokens === 'number') result.cacheWriteTokens = details.cache_write_tokens;
  const reasoning = (usage.output_tokens_details as Partial<ResponseUsage.OutputTokensDetails> | null | undefined)?.reasoning_tokens;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  return result;
}

/**
 * The Responses stream → our events: output text and reasoning-summary deltas as they arrive,
 * each function call once its item is done (`response.output_item.done`), a reasoning item that
 * carries `encrypted_content` as opaque data to store and send back, and `finish` at
 * `response.completed` / `response.incomplete` with the mapped reason and usage. `error` and
 * `response.failed` events become `stream_error`s; a stream that ends without a final event was
 * cut: a retryable `stream_incomplete`.
 */
export async function* mapOpenAIStream(events: AsyncIterable<ResponseStreamEvent>): AsyncGenerator<StreamEvent> {
  let hasToolCalls = false;
  // Reasoning items in their place among the answer's message and calls (issue V).
  const layout = new AnswerLayoutRecorder();
  for await (const event of events) {
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (event.delta !== '') yield { type: 'text-delta', text: event.delta };
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (event.delta !== '') yield { type: 'reasoning-delta', text: event.delta };
        break;
      case 'response.output_item.done': {
        const item = event.item;
        // A reasoning item with its encrypted content: stored, and sent back as it came (RFD 028).
        if (item.type === 'reasoning' && typeof item.encrypted_content === 'string' && item.encrypted_content !== '') {
          layout.reasoning({ type: 'reasoning', id: item.id, summary: item.summary, encrypted_content: item.encrypted_content });
          break;
        }
        if (item.type === 'message') {
          layout.text(item.content.reduce((sum, part) => sum + (part.type === 'output_text' ? part.text.length : part.type === 'refusal' ? part.refusal.length : 0), 0));
          break;
        }
        if (item.type !== 'function_call') break;
        hasToolCalls = true;
        layout.call(item.call_id);
        yield { type: 'tool-call', id: item.call_id, name: item.name, arguments: parseToolArguments(item.arguments, item.name, 'openai') };
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = event.response;
        const reason = mapOpenAIFinishReason({
          status: response.status ?? (event.type === 'response.completed' ? 'completed' : 'incomplete'),
          incompleteReason: response.incomplete_details?.reason,
          hasToolCalls,
        });
        for (const item of layout.finish()) yield { type: 'reasoning-opaque', provider: 'openai', item };
        yield { type: 'finish', reason, usage: mapOpenAIUsage(response.usage) };
        return;
      }
      case 'response.failed': {
        const failure = event.response.error;
        throw streamErrorToProviderError('openai', failure?.code, failure?.message ?? 'the response failed');
      }
      case 'error':
        throw streamErrorToProviderError('openai', event.code, event.message);
    }
  }
  throw new ProviderError('openai', 'the openai response stream ended before response.completed (connection cut?)', {
    code: 'stream_incomplete',
    isRetryable: true,
  });
}
