import { groupTurns, UsageError, type ConversationEvent, type Turn } from '@jp/core';

/** `--turn N` / `--last`: which turns `conversation show` prints. */
export interface TurnSelection {
  turn?: string | undefined;
  last?: boolean | undefined;
}

/**
 * The events before the first turn and the turns selected: all, turn N (0-based, as everywhere in
 * jp), `..` (every turn: what `jp conversation grep` gives a title hit), or the last one. A selection
 * leaves the preamble out: it is about turns.
 */
export function selectTurns(events: readonly ConversationEvent[], selection: TurnSelection): { preamble: ConversationEvent[]; turns: Turn[] } {
  const { preamble, turns } = groupTurns(events);
  if (selection.turn !== undefined && selection.last) throw new UsageError('--turn and --last exclude each other', { code: 'usage_error' });
  if (selection.last) return { preamble: [], turns: turns.slice(-1) };
  if (selection.turn === undefined) return { preamble, turns };
  if (selection.turn === '..') return { preamble: [], turns };
  const index = /^\d+$/.test(selection.turn) ? Number(selection.turn) : Number.NaN;
  if (!Number.isInteger(index) || index >= turns.length) {
    const range = turns.length === 0 ? 'it has no turns' : `turns are 0 to ${turns.length - 1}`;
    throw new UsageError(`--turn ${selection.turn} is not a turn of this conversation: ${range}`, { code: 'usage_error' });
  }
  return { preamble: [], turns: [turns[index]!] };
}
