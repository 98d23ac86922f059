import { setTimeout as sleep } from 'node:timers/promises';
import { now } from '../clock.ts';
import { ProviderError } from '@jp/core';
import type { ConversationEvent, Usage } from '@jp/core';
import { retryAfterMs, type CallRecord, type Provider, type ProviderRequest } from '@jp/providers';
import { openAnswerWriter, type AnswerWriter } from '../output/answer-writer.ts';
import type { Output } from '../output/output.ts';
import type { WaitIndicator } from '../output/wait-spinner.ts';
import { DEFAULT_RETRY_POLICY, isRetryable, retryDelayMs, type RetryPolicy } from './retry-policy.ts';
import { retryNotice, type RetryNotice } from './retry-notice.ts';

export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface TurnAnswer {
  /** What the provider said of the call beyond its answer: its id, a cache miss, dropped blocks (issue V). */
  call?: CallRecord | undefined;
  /** Events to append: reasoning, then the message (when there is text), then the tool calls. */
  events: ConversationEvent[];
  text: string;
  usage: Usage;
  toolCalls: ToolCall[];
}

interface Streamed {
  text: string;
  reasoning: string;
  /** The provider's wire items to send back with the reasoning (RFD 028). */
  opaque: Array<{ provider: string; item: Record<string, unknown> }>;
  usage: Usage;
  /** Whether anything reached the user: once it has, a failure can no longer be retried unseen. */
  shown: boolean;
  toolCalls: ToolCall[];
  call?: CallRecord | undefined;
}

async function streamOnce(
  provider: Provider,
  request: ProviderRequest,
  output: Output,
  answer: AnswerWriter,
  state: Streamed,
  showReasoning: boolean,
  signal: AbortSignal | undefined,
  onEvent: () => void,
): Promise<void> {
  for await (const event of provider.stream(request, { signal })) {
    onEvent();
    switch (event.type) {
      case 'text-delta':
        state.text += event.text;
        state.shown = true;
        if (output.json) output.data({ type: 'text_delta', text: event.text });
        else await answer.write(event.text);
        break;
      case 'reasoning-delta':
        state.reasoning += event.text;
        if (output.json) {
          state.shown = true;
          output.data({ type: 'reasoning_delta', text: event.text });
        } else if (showReasoning) {
          state.shown = true;
          // Rendered answers show reasoning dim, so the two read apart.
          output.aside(event.text, { dim: answer.endsLines });
        }
        break;
      case 'reasoning-opaque':
        state.opaque.push(event);
        break;
      case 'warning':
        output.warn(event.message);
        break;
      case 'finish':
        state.usage = event.usage;
        state.call = event.call;
        break;
      case 'tool-call':
        state.toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments });
        state.shown = true;
        if (output.json) output.data({ type: 'tool_call', id: event.id, name: event.name, arguments: event.arguments });
        break;
    }
  }
}

/**
 * One provider call: streams the answer to stdout as it arrives (NDJSON deltas with `-F json`)
 * and returns the events that record it. A retryable failure (429, 5xx, a dropped connection)
 * before anything was shown is retried with backoff; after that, or once retries are used up,
 * the error ends the turn (exit 3) and nothing of it is stored.
 */
export async function runTurn(options: {
  provider: Provider;
  request: ProviderRequest;
  output: Output;
  retry?: RetryPolicy;
  /** Render the answer as Markdown where the output allows it (`Output.rendersMarkdown`). */
  render?: boolean;
  /** Print reasoning deltas on stderr (text mode); they are stored either way. */
  showReasoning?: boolean;
  signal?: AbortSignal;
  /** How retries are told (default: as `retryNotice` does without -v). */
  notice?: RetryNotice | undefined;
  /** Shown from each request until its first event (the spinner); erased before anything is written. */
  waiting?: WaitIndicator | undefined;
}): Promise<TurnAnswer> {
  const { output } = options;
  const policy = options.retry ?? DEFAULT_RETRY_POLICY;
  const notice = options.notice ?? retryNotice(output, { verbose: false });
  const waiting = options.waiting;
  const state: Streamed = { text: '', reasoning: '', opaque: [], usage: {}, shown: false, toolCalls: [] };
  const answer = openAnswerWriter(output, options.render === true);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        waiting?.start();
        await streamOnce(options.provider, options.request, output, answer, state, options.showReasoning === true, options.signal, () => {
          waiting?.stop();
          notice.clear();
        });
        break;
      } catch (error) {
        waiting?.stop();
        if (!isRetryable(error) || state.shown) throw error;
        if (attempt >= policy.maxRetries) {
          throw new ProviderError(error.provider, `${error.message} (gave up after ${policy.maxRetries} ${policy.maxRetries === 1 ? 'retry' : 'retries'})`, {
            code: error.code,
            statusCode: error.statusCode,
            cause: error,
          });
        }
        const delay = retryDelayMs(policy, attempt + 1, retryAfterMs(error));
        notice.show({ attempt: attempt + 1, retries: policy.maxRetries, delayMs: delay, message: error.message });
        state.text = '';
        state.reasoning = '';
        state.opaque = [];
        await sleep(delay, undefined, { signal: options.signal });
      }
    }
  } finally {
    waiting?.stop();
    notice.clear();
    await answer.end();
  }
  if (!output.json && !answer.endsLines && state.text !== '' && !state.text.endsWith('\n')) output.write('\n');
  const timestamp = now().toISOString();
  const events: ConversationEvent[] = [];
  if (state.reasoning !== '' || state.opaque.length > 0) {
    const provider = state.opaque[0]?.provider;
    const opaque = provider === undefined ? {} : { opaque: { provider, items: state.opaque.filter((o) => o.provider === provider).map((o) => o.item) } };
    events.push({ type: 'chat_response', timestamp, reasoning: state.reasoning, ...opaque });
  }
  const usage = state.usage;
  const withUsage = Object.keys(usage).length > 0 ? { usage } : {};
  if (state.text !== '' || state.toolCalls.length === 0) events.push({ type: 'chat_response', timestamp, message: state.text, ...withUsage });
  for (const call of state.toolCalls) events.push({ type: 'tool_call_request', timestamp, id: call.id, name: call.name, arguments: call.arguments });
  return { events, text: state.text, usage, toolCalls: state.toolCalls, call: state.call };
}
