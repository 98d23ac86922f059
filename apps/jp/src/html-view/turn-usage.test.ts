import { groupTurns } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { turn } from './__fixtures__/page-fixture.ts';
import { addTokens, totalTokens, turnTokens, turnUsage } from './turn-usage.ts';

describe('turn usage', () => {
  it('takes the last answer carrying usage (the turn total), not the sum of every answer', () => {
    const events = turn('q', [], 'final', { inputTokens: 300, outputTokens: 30 }, [
      { type: 'chat_response', timestamp: 't', message: 'first round', usage: { inputTokens: 100, outputTokens: 10 } },
    ]);
    const [only] = groupTurns(events).turns;
    expect(turnUsage(only!)).toEqual({ inputTokens: 300, outputTokens: 30 });
  });

  it('splits input into uncached, cache write and cache read (inputTokens counts all three)', () => {
    const tokens = turnTokens({ inputTokens: 1000, cacheReadTokens: 600, cacheWriteTokens: 300, outputTokens: 50, reasoningTokens: 20 });
    expect(tokens).toEqual({ uncachedInput: 100, cacheWrite: 300, cacheRead: 600, output: 50, reasoning: 20, recorded: true });
    expect(totalTokens(tokens)).toBe(1050);
    expect(addTokens(tokens, tokens).cacheRead).toBe(1200);
  });

  it('says when a turn recorded no usage', () => {
    const [only] = groupTurns(turn('q', [], 'a')).turns;
    expect(turnTokens(turnUsage(only!))).toMatchObject({ recorded: false, output: 0 });
  });
});
