import type { ChatRequestEvent, ConversationEvent } from './conversation-event.ts';

/** The events of one turn: from a `turn_start` up to the next. */
export interface Turn {
  index: number;
  events: ConversationEvent[];
  /** The turn's user message, when it has one. */
  request: ChatRequestEvent | undefined;
}

/**
 * Splits a stream into turns. Events before the first `turn_start` (config deltas recorded when a
 * conversation is created) belong to no turn and are returned in `preamble`.
 */
export function groupTurns(events: readonly ConversationEvent[]): { preamble: ConversationEvent[]; turns: Turn[] } {
  const preamble: ConversationEvent[] = [];
  const turns: Turn[] = [];
  for (const event of events) {
    if (event.type === 'turn_start') {
      turns.push({ index: turns.length, events: [event], request: undefined });
      continue;
    }
    const current = turns.at(-1);
    if (!current) {
      preamble.push(event);
      continue;
    }
    current.events.push(event);
    if (event.type === 'chat_request' && current.request === undefined) current.request = event as ChatRequestEvent;
  }
  return { preamble, turns };
}

/**
 * The stream's number of the turn a `turn_start` opens, given the previous one's: the next, unless
 * the event names its turn (a compacted view, where a summary stands for several turns).
 */
export function turnNumber(event: ConversationEvent, previous: number): number {
  const named = (event as { turn?: unknown }).turn;
  return typeof named === 'number' ? named : previous + 1;
}
