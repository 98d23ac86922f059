import type { ConversationEvent } from '../conversation-event.ts';
import type { CompactionEvent } from './compaction-event.ts';

/**
 * The compactions a fork through turn `untilTurn` carries beyond the lines it copies: those
 * appended after that turn, in order, each cut to the fork's turns, so the fork is sent its turns
 * as the source is. A summary that also covers later turns is left out (its text speaks of turns
 * the fork does not have); the event's other policies still apply. Resets are carried as they are.
 */
export function compactionsForFork(events: readonly ConversationEvent[], untilTurn: number): CompactionEvent[] {
  let turn = -1;
  const out: CompactionEvent[] = [];
  for (const event of events) {
    if (event.type === 'turn_start') turn++;
    if (event.type !== 'compaction' || turn <= untilTurn) continue;
    const compaction = event as CompactionEvent;
    if (compaction.reset === true) {
      out.push(compaction);
      continue;
    }
    if (compaction.from === undefined || compaction.to === undefined || compaction.from > untilTurn) continue;
    const { summary, ...rest } = compaction;
    const cut: CompactionEvent = { ...rest, to: Math.min(compaction.to, untilTurn) };
    if (summary !== undefined && compaction.to <= untilTurn) cut.summary = summary;
    if (cut.summary === undefined && cut.reasoning === undefined && cut.tools === undefined && cut.resources === undefined) continue;
    out.push(cut);
  }
  return out;
}
