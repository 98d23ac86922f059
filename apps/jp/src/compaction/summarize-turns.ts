import { ProviderError, turnNumber, type CompactionSummary, type ConversationEvent } from '@jp/core';
import type { Provider } from '@jp/providers';
import type { Output } from '../output/output.ts';
import { resolveView } from '../query/model-events.ts';
import type { TurnContent } from '../store/turn-content.ts';
import { runTurn } from '../turn/run-turn.ts';

/** The view through turn `to`: what the model was sent of those turns (later turns, and the new one, cut off). */
export function viewThroughTurn(view: readonly ConversationEvent[], to: number): ConversationEvent[] {
  let turn = -1;
  const end = view.findIndex((event) => event.type === 'turn_start' && (turn = turnNumber(event, turn)) > to);
  return end === -1 ? [...view] : view.slice(0, end);
}

/**
 * Asks a model for the summary a compaction stores: it is sent the conversation through the last
 * turn summarised, as it would be sent now with the compaction's other policies applied (smaller,
 * and a prefix the provider may still have cached), then the summary prompt. Nothing is shown
 * and nothing of this call is stored but the text. A provider failure fails the compaction.
 */
export async function summarizeTurns(input: {
  view: readonly ConversationEvent[];
  to: number;
  provider: Provider;
  /** `provider/model`, recorded with the summary. */
  modelId: string;
  model: string;
  prompt: string;
  system: string | undefined;
  content: TurnContent;
  output: Output;
  signal?: AbortSignal | undefined;
}): Promise<CompactionSummary> {
  const timestamp = new Date().toISOString();
  const through = viewThroughTurn(input.view, input.to);
  const asked: ConversationEvent[] = [...through, { type: 'turn_start', timestamp }, { type: 'chat_request', timestamp, content: input.prompt, resources: [] }];
  const events = resolveView(asked, { provider: input.provider, content: input.content, texts: new Map() });
  const answer = await runTurn({ provider: input.provider, request: { model: input.model, events, system: input.system }, output: input.output.silenced(), signal: input.signal });
  const text = answer.text.trim();
  if (text === '') throw new ProviderError(input.provider.id, `${input.modelId} answered the summary request with no text; try another conversation.compaction.summary_model`, { code: 'empty_summary' });
  return { text, model: input.modelId };
}
