import { describe, expect, it } from 'vitest';
import { completeDigests, completeIds, completeTurns } from './complete-values.ts';

const entries = [
  { id: '0a1-x', title: 'Refactor parser' },
  { id: '0a2-y', title: 'Lunch plans' },
  { id: '0b3-z', title: undefined },
  { id: '0c4-w', title: 'parser bugs, 0a' },
];

describe('completion values', () => {
  it('completes ids by prefix, newest first, then by title (any case)', () => {
    expect(completeIds('0a', entries)).toEqual(['0a2-y', '0a1-x', '0c4-w']);
    expect(completeIds('PARSER', entries)).toEqual(['0c4-w', '0a1-x']);
    expect(completeIds('', entries)).toEqual(['0c4-w', '0b3-z', '0a2-y', '0a1-x']);
    expect(completeIds('nothing', entries)).toEqual([]);
  });

  it('completes turn numbers a conversation has', () => {
    expect(completeTurns('', 3)).toEqual(['0', '1', '2']);
    expect(completeTurns('1', 12)).toEqual(['1', '10', '11']);
    expect(completeTurns('5', 2)).toEqual([]);
  });

  it('completes digests by prefix', () => {
    expect(completeDigests('AB', ['abc', 'abd', 'bcd'])).toEqual(['abc', 'abd']);
  });
});
