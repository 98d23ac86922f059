import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from './conversation-event.ts';
import { dropStaleThinking } from './stale-thinking.ts';

const t = '2026-12-02T00:00:00.000Z';
const start = (): ConversationEvent => ({ type: 'turn_start', timestamp: t });
const ask = (content: string, extra: Record<string, unknown> = {}): ConversationEvent => ({ type: 'chat_request', timestamp: t, content, resources: [], ...extra }) as ConversationEvent;
const thought = (name: string): ConversationEvent => ({ type: 'chat_response', timestamp: t, reasoning: name, opaque: { provider: 'anthropic', items: [{ type: 'thinking', thinking: name, signature: name }] } });
const say = (text: string): ConversationEvent => ({ type: 'chat_response', timestamp: t, message: text });
/** Which answers still carry their provider's reasoning data. */
const signed = (events: ConversationEvent[]) => events.flatMap((event) => ('opaque' in event && event.opaque !== undefined ? [(event as { reasoning: string }).reasoning] : []));

describe('dropStaleThinking (issue V)', () => {
  const turns = (count: number) => Array.from({ length: count }, (_, i) => [start(), ask(`q${i}`), thought(`t${i}`), say(`a${i}`)]).flat();

  it('keeps everything when nothing earlier was rewritten', () => {
    expect(signed(dropStaleThinking(turns(3)))).toEqual(['t0', 't1', 't2']);
  });

  it('a snapshot of turn 1 stubbed from turn 3 on: the thinking of turns 1 and 2 goes, turn 0 and turn 3 on keep theirs', () => {
    const events = [...turns(3), start(), ask('q3', { superseded: [{ turn: 1, uri: 'file:///w/a' }] }), thought('t3'), say('a3'), ...turns(1)];
    expect(signed(dropStaleThinking(events))).toEqual(['t0', 't3', 't0']);
    // Text answers stay: only the provider's data goes.
    expect(dropStaleThinking(events).filter((event) => 'message' in event)).toHaveLength(5);
  });

  it('a compaction of turns 1..2 after turn 3: the thinking of turns 1 to 3 goes; a reset rewrites them back, once more', () => {
    const compaction = { type: 'compaction', timestamp: t, from: 1, to: 2, reasoning: 'strip' } as ConversationEvent;
    const after = [start(), ask('q4'), thought('t4'), say('a4')];
    expect(signed(dropStaleThinking([...turns(4), compaction, ...after]))).toEqual(['t0', 't4']);
    const reset = { type: 'compaction', timestamp: t, reset: true } as ConversationEvent;
    const later = [start(), ask('q5'), thought('t5'), say('a5')];
    expect(signed(dropStaleThinking([...turns(4), compaction, ...after, reset, ...later]))).toEqual(['t0', 't5']);
  });
});
