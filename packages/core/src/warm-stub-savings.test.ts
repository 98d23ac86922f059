import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from './conversation-event.ts';
import type { Resource } from './resource.ts';
import { decideSuperseded, type SupersededMark } from './superseded-snapshots.ts';
import { placeSnapshots, warmStubsWorthIt } from './warm-stub-savings.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const stored = (uri: string, content: string): Resource => ({
  uri,
  mimeType: 'text/plain',
  ref: { sha256: hash('sha256', content, 'hex'), size: Buffer.byteLength(content), encoding: 'text' },
});
/** A turn whose query is `q`, with `resources`, answered with `answer`. */
const turn = (minute: number, resources: Resource[], answer = 'a', superseded?: SupersededMark[]): ConversationEvent[] => [
  { type: 'turn_start', timestamp: at(minute) },
  { type: 'chat_request', timestamp: at(minute), content: 'q', resources, ...(superseded ? { superseded } : {}) },
  { type: 'chat_response', timestamp: at(minute), message: answer },
];
const opening = (minute: number, resources: Resource[]): ConversationEvent[] => turn(minute, resources).slice(0, 2);

const A1 = stored('file:///w/a.txt', 'x'.repeat(500));
const A2 = stored('file:///w/a.txt', 'y'.repeat(500));
const A3 = stored('file:///w/a.txt', 'z'.repeat(500));
const warm = (minute: number, last: number) => ({ policy: 'omit-when-cheaper' as const, now: Date.parse(at(minute)), lastRequestAt: Date.parse(at(last)), cacheTtlSecs: 300 });

describe('placeSnapshots', () => {
  it('places each snapshot after the text before it; content size from the reference, formatted text when present', () => {
    const formatted: Resource = { uri: 'file:///w/b.txt', text: 'bb', formatted: '<b>bb</b>' };
    const placed = placeSnapshots([...turn(0, [A1, formatted], 'four'), ...opening(1, [A2])]);
    expect(placed.snapshots).toEqual([
      { turn: 0, uri: A1.uri, offset: 1, bytes: 500 },
      { turn: 0, uri: formatted.uri, offset: 501, bytes: 9 },
      { turn: 1, uri: A2.uri, offset: 515, bytes: 500 },
    ]);
    expect(placed.newestTurnAt).toBe(514); // q + 500 + 9 + "four"
  });
});

describe('warmStubsWorthIt', () => {
  const placed = { snapshots: [{ turn: 0, uri: 'u', offset: 0, bytes: 1000 }], newestTurnAt: 2000 };
  it('weighs the reads saved over the horizon against rewriting the rest of the history at write price', () => {
    // saved 1000 bytes at 0.1 per request; 1000 other bytes rewritten at 1.15 extra.
    expect(warmStubsWorthIt(placed, [{ turn: 0, uri: 'u' }], 10)).toBe(false); // 0.1 × 1000 × 11 = 1100 < 1150
    expect(warmStubsWorthIt(placed, [{ turn: 0, uri: 'u' }], 11)).toBe(true); //  0.1 × 1000 × 12 = 1200 > 1150
    expect(warmStubsWorthIt(placed, [], 100)).toBe(false);
  });
});

describe('decideSuperseded with omit-when-cheaper', () => {
  it('stubs a large stale copy while warm when little history follows it', () => {
    const events = [...turn(0, [A1]), ...opening(1, [A2])];
    expect(decideSuperseded(events, warm(1, 0))).toEqual([{ turn: 0, uri: A1.uri }]);
    expect(decideSuperseded(events, { ...warm(1, 0), policy: 'omit-when-cold' })).toEqual([]);
  });

  it('keeps it while warm when a long history after it would have to be rewritten, and stubs it once cold', () => {
    const events = [...turn(0, [A1], 'a'.repeat(20_000)), ...opening(1, [A2])];
    expect(decideSuperseded(events, warm(1, 0))).toEqual([]);
    expect(decideSuperseded(events, warm(9, 0))).toEqual([{ turn: 0, uri: A1.uri }]); // 9 min > 5 min: cold
  });

  it('assumes the conversation goes on as long as it has: the same copy pays later in a longer conversation', () => {
    const history = (turns: number) => [...turn(0, [A1], 'a'.repeat(2_000)), ...Array.from({ length: turns - 1 }, (_, i) => turn(i + 1, []))].flat();
    expect(decideSuperseded([...history(2), ...opening(2, [A2])], warm(2, 1))).toEqual([]); // 0.1 × 500 × 3 < 1.15 × ~2000
    expect(decideSuperseded([...history(60), ...opening(60, [A2])], warm(60, 59))).toEqual([{ turn: 0, uri: A1.uri }]);
  });

  it('counts recorded stubs at their stub size and does not decide them again', () => {
    const events = [...turn(0, [A1]), ...turn(1, [A2], 'a', [{ turn: 0, uri: A1.uri }]), ...opening(2, [A3])];
    expect(decideSuperseded(events, warm(2, 1))).toEqual([{ turn: 1, uri: A1.uri }]);
  });
});
