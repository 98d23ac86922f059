import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from '../conversation-event.ts';
import { DEFAULT_COMPACTION_RULES, compactionRange, planCompaction } from './plan-compaction.ts';
import { estimateRequestTokens, viewBytes } from './estimate-tokens.ts';

const at = '2026-01-01T00:00:00.000Z';
const turns = (count: number, answer = 'a'): ConversationEvent[] =>
  Array.from({ length: count }, (_, n): ConversationEvent[] => [
    { type: 'turn_start', timestamp: at },
    { type: 'chat_request', timestamp: at, content: `q${n}`, resources: [] },
    { type: 'chat_response', timestamp: at, message: answer },
  ]).flat();

/** What the default rules decide over six turns: turns 0 and 1, the last four kept. */
const FIRST: ConversationEvent = { type: 'compaction', timestamp: at, from: 0, to: 1, reasoning: 'strip', tools: 'strip-results', resources: 'stub' };

describe('planCompaction', () => {
  it('covers the turns between the kept first and last ones', () => {
    expect(compactionRange(10, { keepFirst: 1, keepLast: 4 })).toEqual({ from: 1, to: 5 });
    expect(compactionRange(5, { keepFirst: 1, keepLast: 4 })).toBeUndefined();
    expect(compactionRange(5, { keepFirst: 0, keepLast: 4 })).toEqual({ from: 0, to: 0 });
  });

  it('makes the event of the default rules: reasoning stripped, tool results and resources stubbed', () => {
    expect(planCompaction(turns(6), DEFAULT_COMPACTION_RULES, at)).toEqual({ type: 'compaction', timestamp: at, from: 0, to: 1, reasoning: 'strip', tools: 'strip-results', resources: 'stub' });
  });

  it('decides nothing when every covered turn is already sent that way, or when no turn is left to cover', () => {
    expect(planCompaction([...turns(6), FIRST], DEFAULT_COMPACTION_RULES, at)).toBeUndefined();
    // Two turns more: turns 2 and 3 are new to it.
    expect(planCompaction([...turns(6), FIRST, ...turns(2)], DEFAULT_COMPACTION_RULES, at)).toEqual({ type: 'compaction', timestamp: at, from: 0, to: 3, reasoning: 'strip', tools: 'strip-results', resources: 'stub' });
    expect(planCompaction(turns(4), DEFAULT_COMPACTION_RULES, at)).toBeUndefined();
    expect(planCompaction(turns(9), { keepFirst: 0, keepLast: 0, reasoning: false, tools: 'keep', resources: false }, at)).toBeUndefined();
  });

  it('takes a summary as given, even over turns already compacted', () => {
    const summary = { text: 'S', model: 'echo/echo' };
    expect(planCompaction([...turns(6), FIRST], DEFAULT_COMPACTION_RULES, at, summary)).toEqual({ type: 'compaction', timestamp: at, from: 0, to: 1, reasoning: 'strip', tools: 'strip-results', resources: 'stub', summary });
  });
});

describe('estimateRequestTokens', () => {
  it('is bytes/4 of the view when no usage is stored', () => {
    const events = turns(3, 'x'.repeat(400));
    // Each turn: "q0" (2 bytes) and 400 of answer.
    expect(viewBytes(events)).toBe(1206);
    expect(estimateRequestTokens(events, events)).toBe(302);
  });

  it('starts from the input of the newest turn’s last call and adds that call’s answer and what came after', () => {
    const events = turns(2);
    const answer: ConversationEvent = { type: 'chat_response', timestamp: at, message: 'a'.repeat(40), usage: { inputTokens: 5000, outputTokens: 50, lastInputTokens: 1000 } };
    const next: ConversationEvent[] = [...events.slice(0, -1), answer, { type: 'turn_start', timestamp: at }, { type: 'chat_request', timestamp: at, content: 'y'.repeat(400), resources: [] }];
    expect(estimateRequestTokens(next, next)).toBe(1000 + 10 + 100);
  });

  it('takes inputTokens of a turn with one call, and not of one with tool calls (summed over its calls)', () => {
    const single: ConversationEvent[] = [...turns(1).slice(0, -1), { type: 'chat_response', timestamp: at, message: 'abcd', usage: { inputTokens: 700 } }];
    expect(estimateRequestTokens(single, single)).toBe(700 + 1);
    const looped: ConversationEvent[] = [
      ...turns(1).slice(0, -1),
      { type: 'tool_call_request', timestamp: at, id: 'c', name: 't', arguments: {} },
      { type: 'tool_call_response', timestamp: at, id: 'c', content: [{ type: 'text', text: 'r' }], isError: false },
      { type: 'chat_response', timestamp: at, message: 'abcd', usage: { inputTokens: 9000 } },
    ];
    // The whole view, 2 + 3 ("t", "{}") + 1 + 4 bytes, at four bytes a token.
    expect(estimateRequestTokens(looped, looped)).toBe(3);
  });

  it('ignores a usage older than the newest compaction: it measured another view', () => {
    const events: ConversationEvent[] = [
      ...turns(1),
      { type: 'chat_response', timestamp: at, message: 'b', usage: { inputTokens: 90_000, lastInputTokens: 90_000 } },
      { type: 'compaction', timestamp: at, from: 0, to: 0, resources: 'stub' },
      ...turns(1),
    ];
    // The whole view, 3 + 1 + 3 bytes, not the 90 000 of the stale usage.
    expect(estimateRequestTokens(events, events)).toBe(2);
  });
});
