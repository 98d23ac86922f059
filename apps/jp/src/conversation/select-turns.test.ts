import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from '@jp/core';
import { selectTurns } from './select-turns.ts';

const t = 'T';
const events = [
  { type: 'config_delta', timestamp: t, delta: {} },
  { type: 'turn_start', timestamp: t },
  { type: 'chat_request', timestamp: t, content: 'zero', resources: [] },
  { type: 'turn_start', timestamp: t },
  { type: 'chat_request', timestamp: t, content: 'one', resources: [] },
] as ConversationEvent[];
const asked = (turns: ReturnType<typeof selectTurns>['turns']) => turns.map((turn) => turn.request?.content);

describe('selectTurns', () => {
  it('keeps everything without a selection', () => {
    const all = selectTurns(events, {});
    expect(all.preamble).toHaveLength(1);
    expect(asked(all.turns)).toEqual(['zero', 'one']);
  });

  it('selects one turn by its 0-based index, or the last one, without the preamble', () => {
    expect(asked(selectTurns(events, { turn: '0' }).turns)).toEqual(['zero']);
    expect(selectTurns(events, { turn: '1' }).turns[0]!.index).toBe(1);
    expect(asked(selectTurns(events, { last: true }).turns)).toEqual(['one']);
    expect(selectTurns(events, { last: true }).preamble).toEqual([]);
  });

  it('refuses a turn that is not one, naming the range', () => {
    expect(() => selectTurns(events, { turn: '2' })).toThrow('--turn 2 is not a turn of this conversation: turns are 0 to 1');
    expect(() => selectTurns(events, { turn: '-1' })).toThrow(/--turn -1 is not a turn/);
    expect(() => selectTurns(events, { turn: 'x' })).toThrow(/--turn x/);
    expect(() => selectTurns(events, { turn: '0', last: true })).toThrow('--turn and --last exclude each other');
  });
});
