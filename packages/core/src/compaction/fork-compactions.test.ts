import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from '../conversation-event.ts';
import type { CompactionEvent } from './compaction-event.ts';
import { compactionsForFork } from './fork-compactions.ts';

const at = '2026-01-01T00:00:00.000Z';
const turn = (n: number): ConversationEvent[] => [
  { type: 'turn_start', timestamp: at },
  { type: 'chat_request', timestamp: at, content: `q${n}`, resources: [] },
  { type: 'chat_response', timestamp: at, message: `a${n}` },
];
const compaction = (fields: Partial<CompactionEvent>) => ({ type: 'compaction', timestamp: at, ...fields }) as CompactionEvent;

describe('compactionsForFork', () => {
  it('carries the compactions appended after the fork’s last turn, cut to its turns', () => {
    const inside = compaction({ from: 0, to: 0, reasoning: 'strip' });
    const later = compaction({ from: 0, to: 4, resources: 'stub' });
    const beyond = compaction({ from: 3, to: 4, resources: 'stub' });
    const events = [...turn(0), ...turn(1), inside, ...turn(2), ...turn(3), ...turn(4), ...turn(5), later, beyond];
    // `inside` lies within turn 1's lines, which the fork copies itself.
    expect(compactionsForFork(events, 2)).toEqual([{ ...later, to: 2 }]);
    expect(compactionsForFork(events, 5)).toEqual([]);
  });

  it('leaves out a summary that speaks of later turns, keeping the event’s other policies; carries resets', () => {
    const summary = { text: 'S', model: 'm' };
    const events = [...turn(0), ...turn(1), ...turn(2), compaction({ from: 0, to: 2, summary, reasoning: 'strip' }), compaction({ from: 0, to: 1, summary }), compaction({ reset: true })];
    expect(compactionsForFork(events, 1)).toEqual([compaction({ from: 0, to: 1, reasoning: 'strip' }), compaction({ from: 0, to: 1, summary }), compaction({ reset: true })]);
    expect(compactionsForFork(events, 0)).toEqual([compaction({ from: 0, to: 0, reasoning: 'strip' }), compaction({ reset: true })]);
  });
});
