import { ProviderError, type Usage } from '@jp/core';
import type { ChatCompletionChunk, CompletionUsage } from '../openai/openai-types.ts';
import type { FinishReason, StreamEvent } from '../provider.ts';
import { parseToolArguments } from '../shared/parse-tool-arguments.ts';
import { mapOpenAICompatibleFinishReason } from './map-openai-compatible-finish-reason.ts';
import { ReasoningDetails } from './reasoning-details.ts';

/** Chat-completions usage → ours. `prompt_tokens` counts cached tokens too (kept as reported). */
export function mapOpenAICompatibleUsage(usage: CompletionUsage | null | undefined): Usage {
  if (!usage) return {};
  const result: Usage = {};
  if (typeof usage.prompt_tokens === 'number') result.inputTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number') result.outputTokens = usage.completion_tokens;
  // OpenRouter adds `cache_write_tokens` for upstreams that bill cache writes.
  const details = usage.prompt_tokens_details as { cached_tokens?: unknown; cache_write_tokens?: unknown } | null | undefined;
  if (typeof details?.cached_tokens === 'number') result.cacheReadTokens = details.cached_tokens;
  if (typeof details?.cache_write_tokens === 'number') result.cacheWriteTokens = details.cache_write_tokens;
  return result;
}

/**
 * Delta fields some vendors add: `reasoning` (OpenRouter, Ollama) or `reasoning_content` (DeepSeek,
 * vLLM), and OpenRouter's `reasoning_details`.
 */
type Delta = ChatCompletionChunk.Choice.Delta & { reasoning?: unknown; reasoning_content?: unknown; reasoning_details?: unknown };

interface PendingCall {
  id: string;
  name: string;
  json: string;
}

/**
 * The chat-completions chunk stream → our events: content and reasoning deltas as they arrive;
 * tool calls assembled from their deltas by `index` and emitted when the choice finishes; `finish`
 * once the stream is over, with usage from the final chunk (`stream_options.include_usage`). A
 * stream that ends before any `finish_reason` was cut: a retryable `stream_incomplete`.
 */
export async function* mapOpenAICompatibleChatStream(chunks: AsyncIterable<ChatCompletionChunk>, provider: string): AsyncGenerator<StreamEvent> {
  let usage: Usage = {};
  let reason: FinishReason | undefined;
  const calls = new Map<number, PendingCall>();
  const details = new ReasoningDetails();

  function* flushCalls(): Generator<StreamEvent> {
    for (const [index, call] of [...calls.entries()].sort(([a], [b]) => a - b)) {
      yield { type: 'tool-call', id: call.id === '' ? `call_${index}` : call.id, name: call.name, arguments: parseToolArguments(call.json, call.name, provider) };
    }
    calls.clear();
  }

  for await (const chunk of chunks) {
    if (chunk.usage) usage = mapOpenAICompatibleUsage(chunk.usage);
    // One answer: choice 0 (a server that leaves `index` out means that one too).
    const choice = chunk.choices?.find((candidate) => candidate.index === 0 || candidate.index === undefined);
    if (choice === undefined) continue;
    const delta = (choice.delta ?? {}) as Delta;
    const reasoning = typeof delta.reasoning === 'string' ? delta.reasoning : delta.reasoning_content;
    if (typeof reasoning === 'string' && reasoning !== '') yield { type: 'reasoning-delta', text: reasoning };
    if (Array.isArray(delta.reasoning_details)) details.add(delta.reasoning_details);
    if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text-delta', text: delta.content };
    if (typeof delta.refusal === 'string' && delta.refusal !== '') yield { type: 'text-delta', text: delta.refusal };
    for (const part of delta.tool_calls ?? []) {
      const call = calls.get(part.index) ?? { id: '', name: '', json: '' };
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name = part.function.name;
      if (part.function?.arguments) call.json += part.function.arguments;
      calls.set(part.index, call);
    }
    if (choice.finish_reason) {
      reason = mapOpenAICompatibleFinishReason(choice.finish_reason);
      yield* flushCalls();
    }
  }
  if (reason === undefined) {
    throw new ProviderError(provider, `the ${provider} response stream ended before a finish_reason (connection cut?)`, {
      code: 'stream_incomplete',
      isRetryable: true,
    });
  }
  for (const item of details.items()) yield { type: 'reasoning-opaque', provider, item };
  yield { type: 'finish', reason, usage };
}
