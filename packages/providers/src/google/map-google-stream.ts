import { randomBytes } from 'node:crypto';
import { ProviderError, type Usage } from '@jp/core';
import type { StreamEvent } from '../provider.ts';
import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from './google-types.ts';
import { mapGoogleFinishReason } from './map-google-finish-reason.ts';

/** The fields of a streamed chunk this mapping reads (the SDK's `GenerateContentResponse`). */
export type GoogleStreamChunk = Pick<GenerateContentResponse, 'candidates' | 'usageMetadata' | 'promptFeedback'>;

export interface MapGoogleStreamOptions {
  /** Ids for function calls Gemini sent without one; by default `call_` and 16 random hex digits. */
  createCallId?: () => string;
}

const randomCallId = () => `call_${randomBytes(8).toString('hex')}`;

/**
 * Gemini's counts → ours. `inputTokens` is `promptTokenCount` as reported, which includes the
 * cached tokens (OpenAI's convention too); `cacheReadTokens` is `cachedContentTokenCount`;
 * `outputTokens` is `candidatesTokenCount + thoughtsTokenCount`, the billed output, since OpenAI
 * and Anthropic count thinking in their output too. Gemini reports no cache writes. Absent counts
 * stay absent.
 */
export function mapGoogleUsage(wire: GenerateContentResponseUsageMetadata | undefined): Usage {
  if (!wire) return {};
  const usage: Usage = {};
  if (typeof wire.promptTokenCount === 'number') usage.inputTokens = wire.promptTokenCount;
  if (typeof wire.candidatesTokenCount === 'number' || typeof wire.thoughtsTokenCount === 'number') {
    usage.outputTokens = (wire.candidatesTokenCount ?? 0) + (wire.thoughtsTokenCount ?? 0);
  }
  if (typeof wire.cachedContentTokenCount === 'number') usage.cacheReadTokens = wire.cachedContentTokenCount;
  if (typeof wire.thoughtsTokenCount === 'number') usage.reasoningTokens = wire.thoughtsTokenCount;
  return usage;
}

function callArguments(args: unknown, name: string): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new ProviderError('google', `google sent non-object arguments for tool ${name}`, { code: 'invalid_response' });
  }
  return args as Record<string, unknown>;
}

function* partEvents(part: Part, createCallId: () => string): Generator<StreamEvent> {
  if (part.functionCall) {
    const name = part.functionCall.name ?? '';
    if (name === '') throw new ProviderError('google', 'google sent a function call without a name', { code: 'invalid_response' });
    const id = part.functionCall.id !== undefined && part.functionCall.id !== '' ? part.functionCall.id : createCallId();
    yield { type: 'tool-call', id, name, arguments: callArguments(part.functionCall.args, name) };
    // Gemini wants a call's signature back on the same call (RFD 028): kept with the call's id.
    if (signed(part)) yield { type: 'reasoning-opaque', provider: 'google', item: { functionCallId: id, thoughtSignature: part.thoughtSignature } };
    return;
  }
  if (typeof part.text === 'string' && part.text !== '') {
    yield part.thought === true ? { type: 'reasoning-delta', text: part.text } : { type: 'text-delta', text: part.text };
  }
  // A signature on a text part (the answer's last, without function calls) goes back on the answer's text.
  if (signed(part)) yield { type: 'reasoning-opaque', provider: 'google', item: { text: true, thoughtSignature: part.thoughtSignature } };
}

function signed(part: Part): part is Part & { thoughtSignature: string } {
  return typeof part.thoughtSignature === 'string' && part.thoughtSignature !== '';
}

/**
 * The `streamGenerateContent` chunks → our events: text (and thought summaries, as reasoning) as
 * each chunk arrives, each function call as it comes (Gemini sends them whole), and `finish` once
 * the stream ends, with the reason of the chunk that carried one and the newest usage (each chunk
 * repeats the running totals). A stream that ends without a finish reason was cut: that is a
 * retryable `ProviderError`. A prompt Gemini blocked ends as `content-filter` with a warning.
 */
export async function* mapGoogleStream(
  chunks: AsyncIterable<GoogleStreamChunk>,
  options: MapGoogleStreamOptions = {},
): AsyncGenerator<StreamEvent> {
  const createCallId = options.createCallId ?? randomCallId;
  let usage: GenerateContentResponseUsageMetadata | undefined;
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  let toolCalls = 0;

  for await (const chunk of chunks) {
    if (chunk.usageMetadata) usage = chunk.usageMetadata;
    if (chunk.promptFeedback?.blockReason !== undefined) blockReason = chunk.promptFeedback.blockReason;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      for (const event of partEvents(part, createCallId)) {
        if (event.type === 'tool-call') toolCalls += 1;
        yield event;
      }
    }
    if (candidate?.finishReason !== undefined) finishReason = candidate.finishReason;
  }

  if (blockReason !== undefined && finishReason === undefined) {
    yield { type: 'warning', message: `google blocked the prompt (${blockReason})` };
    yield { type: 'finish', reason: 'content-filter', usage: mapGoogleUsage(usage) };
    return;
  }
  if (finishReason === undefined) {
    throw new ProviderError('google', 'the google response stream ended without a finish reason (connection cut?)', {
      code: 'stream_incomplete',
      isRetryable: true,
    });
  }
  yield { type: 'finish', reason: mapGoogleFinishReason(finishReason, toolCalls > 0), usage: mapGoogleUsage(usage) };
}
