import type { CompactionEvent } from './compaction/compaction-event.ts';
import type { ChatRequestEvent, ConversationEvent } from './conversation-event.ts';

/**
 * The provider's reasoning data of every answer that a later rewrite of what came before it made
 * stale, dropped (issue V, RFD 020). A superseded snapshot stubbed from turn k on rewrites its own
 * turn; a compaction rewrites the turns it covers, and a reset rewrites them back. Thinking produced
 * before a rewrite, and sitting after the rewritten point, was bound to a prefix that no longer
 * exists: preserved-thinking models reject it ("Once you rewrite anything earlier in the
 * conversation, don't send back a thinking block that was produced before the rewrite",
 * platform.claude.com/docs/en/build-with-claude/preserved-thinking#custom-compaction-on-the-client).
 * Thinking before the rewritten point, and thinking produced after the rewrite, stay. The answers'
 * text and tool calls stay; only `opaque` goes. Pure: the same stream gives the same result, so
 * every later request repeats it.
 */
export function dropStaleThinking(events: readonly ConversationEvent[]): ConversationEvent[] {
  const turnStarts: number[] = [];
  events.forEach((event, index) => {
    if (event.type === 'turn_start') turnStarts.push(index);
  });
  /** [from, until): reasoning events at these indexes were produced before a rewrite of what precedes them. */
  const stale: Array<[number, number]> = [];
  const covered = new Set<number>();
  events.forEach((event, index) => {
    if (event.type === 'chat_request') {
      for (const mark of (event as ChatRequestEvent).superseded ?? []) {
        const start = turnStarts[mark.turn];
        if (start !== undefined) stale.push([start, index]);
      }
    } else if (event.type === 'compaction') {
      const compaction = event as CompactionEvent;
      const turns = compaction.reset === true ? [...covered] : compaction.from === undefined ? [] : [compaction.from];
      if (compaction.reset === true) covered.clear();
      else if (compaction.from !== undefined) covered.add(compaction.from);
      const first = Math.min(...turns.map((turn) => turnStarts[turn] ?? Number.POSITIVE_INFINITY));
      if (Number.isFinite(first)) stale.push([first, index]);
    }
  });
  if (stale.length === 0) return [...events];
  return events.map((event, index) => {
    if (event.type !== 'chat_response' || !('opaque' in event) || event.opaque === undefined) return event;
    if (!stale.some(([from, until]) => index >= from && index < until)) return event;
    const { opaque: _opaque, ...rest } = event;
    return rest as ConversationEvent;
  });
}
