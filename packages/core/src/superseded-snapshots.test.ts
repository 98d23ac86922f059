import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ContentBlock } from './content-block.ts';
import type { ChatRequestEvent, ConversationEvent, ToolCallResponseEvent } from './conversation-event.ts';
import { dedupeResources } from './dedupe-resources.ts';
import type { Resource } from './resource.ts';
import {
  cacheIsCold,
  decideSuperseded,
  lastActivityAt,
  stubSuperseded,
  supersededCandidates,
  supersededStub,
  type SupersededMark,
  type SupersededOptions,
} from './superseded-snapshots.ts';

const sha = (data: string) => hash('sha256', data, 'hex');
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const text = (uri: string, content: string): Resource => ({
  uri,
  name: uri.replace('file:///w/', ''),
  mimeType: 'text/plain',
  ref: { sha256: sha(content), size: Buffer.byteLength(content), encoding: 'text' },
});
const turn = (minute: number, resources: Resource[] = [], superseded?: SupersededMark[], ...after: ConversationEvent[]): ConversationEvent[] => [
  { type: 'turn_start', timestamp: at(minute) },
  { type: 'chat_request', timestamp: at(minute), content: 'q', resources, ...(superseded ? { superseded } : {}) },
  ...after,
  { type: 'chat_response', timestamp: at(minute), message: 'a' },
];
const toolResult = (minute: number, id: string, content: ContentBlock[]): ConversationEvent => ({ type: 'tool_call_response', timestamp: at(minute), id, content, isError: false });
const requests = (events: ConversationEvent[]) => events.filter((e): e is ChatRequestEvent => e.type === 'chat_request');
const sent = (events: ConversationEvent[]) => requests(events).map((r) => r.resources.map((resource) => resource.formatted ?? resource.uri));

const A1 = text('file:///w/a.txt', 'version 1 '.repeat(50));
const A2 = text('file:///w/a.txt', 'version 2 '.repeat(50));
const A3 = text('file:///w/a.txt', 'version 3 '.repeat(50));
const B = text('file:///w/b.txt', 'b '.repeat(300));
const options = (policy: SupersededOptions['policy'], now: number, lastRequestAt: number | undefined, cacheTtlSecs = 300): SupersededOptions => ({
  policy,
  now: Date.parse(at(now)),
  lastRequestAt: lastRequestAt === undefined ? undefined : Date.parse(at(lastRequestAt)),
  cacheTtlSecs,
});

describe('supersededCandidates', () => {
  it('names every (turn, uri) with a later snapshot of the same URI, attachment or tool result, and never the newest', () => {
    const events = [
      ...turn(0, [A1, B]),
      ...turn(1, [], undefined, toolResult(1, 't1', [{ type: 'resource', resource: A2 }])),
      ...turn(2, [A3]),
    ];
    expect(supersededCandidates(events)).toEqual([
      { turn: 0, uri: A1.uri },
      { turn: 1, uri: A1.uri },
    ]);
  });

  it('counts an unchanged re-attachment as a newer snapshot', () => {
    expect(supersededCandidates([...turn(0, [A1]), ...turn(1, [A1])])).toEqual([{ turn: 0, uri: A1.uri }]);
  });
});

describe('decideSuperseded', () => {
  const stream = [...turn(0, [A1, B]), ...turn(1), ...turn(2, [A2])];

  it('keep stubs nothing, omit every superseded snapshot', () => {
    expect(decideSuperseded(stream, options('keep', 3, 2))).toEqual([]);
    expect(decideSuperseded(stream, options('omit', 3, 2))).toEqual([{ turn: 0, uri: A1.uri }]);
  });

  it('omit-when-cold stubs only when the last request is older than the TTL', () => {
    expect(decideSuperseded(stream, options('omit-when-cold', 4, 0, 300))).toEqual([]); // 4 min < 5 min: warm
    expect(decideSuperseded(stream, options('omit-when-cold', 5, 0, 300))).toEqual([]); // exactly the TTL: still warm
    expect(decideSuperseded(stream, options('omit-when-cold', 6, 0, 300))).toEqual([{ turn: 0, uri: A1.uri }]);
    expect(decideSuperseded(stream, options('omit-when-cold', 6, 0, 3600))).toEqual([]); // an hour's cache is warm
  });

  it('does not record again what an earlier request recorded', () => {
    const events = [...turn(0, [A1]), ...turn(1, [A2], [{ turn: 0, uri: A1.uri }]), ...turn(20, [A3])];
    expect(decideSuperseded(events, options('omit', 21, 20))).toEqual([{ turn: 1, uri: A1.uri }]);
  });
});

describe('cacheIsCold and lastActivityAt', () => {
  it('a conversation without requests is cold; the newest timestamp of the stream is its last request', () => {
    expect(cacheIsCold({ now: 0, lastRequestAt: undefined, cacheTtlSecs: 300 })).toBe(true);
    const events = [...turn(0), ...turn(7)];
    expect(lastActivityAt(events)).toBe(Date.parse(at(7)));
    expect(lastActivityAt([])).toBeUndefined();
  });
});

describe('stubSuperseded', () => {
  it('sends a recorded snapshot as the stub naming the turn of the next snapshot; the rest as they are', () => {
    const events = [...turn(0, [A1, B]), ...turn(1, [A2]), ...turn(2, [A3], [{ turn: 0, uri: A1.uri }])];
    expect(sent(stubSuperseded(events))).toEqual([[supersededStub(A1.uri, 1), B.uri], [A2.uri], [A3.uri]]);
    expect(supersededStub(A1.uri, 1)).toBe('[superseded: file:///w/a.txt — newer content in turn 1]');
  });

  it('without recorded marks returns the same events; it never changes its input', () => {
    const events = [...turn(0, [A1]), ...turn(1, [A2])];
    const out = stubSuperseded(events);
    out.forEach((event, i) => expect(event).toBe(events[i]));
    const marked = [...turn(0, [A1]), ...turn(1, [A2], [{ turn: 0, uri: A1.uri }])];
    const copy = structuredClone(marked);
    stubSuperseded(marked);
    expect(marked).toEqual(copy);
  });

  it('never stubs the newest snapshot of a URI, whatever is recorded', () => {
    const events = [...turn(0, [A1], [{ turn: 0, uri: A1.uri }])];
    expect(sent(stubSuperseded(events))).toEqual([[A1.uri]]);
  });

  it('stubs a refresh result in a tool response, block and resource alike', () => {
    const events = [...turn(0, [], undefined, toolResult(0, 't1', [{ type: 'resource', resource: A1, formatted: 'tool view' }])), ...turn(1, [A2], [{ turn: 0, uri: A1.uri }])];
    const response = stubSuperseded(events).find((e): e is ToolCallResponseEvent => e.type === 'tool_call_response')!;
    const block = response.content[0] as Extract<ContentBlock, { type: 'resource' }>;
    expect(block.formatted).toBe(supersededStub(A1.uri, 1));
    expect(block.resource.formatted).toBe(supersededStub(A1.uri, 1));
  });

  it('composes with deduplication: a later copy of stubbed content is sent in full, never as a reference to the stub', () => {
    // A1 at turn 0, re-attached unchanged at turn 2; turn 0 is stubbed. Without the stub, turn 2
    // would be a reference to turn 0 — which the model no longer sees.
    const events = [...turn(0, [A1]), ...turn(1), ...turn(2, [A1], [{ turn: 0, uri: A1.uri }])];
    const out = dedupeResources(stubSuperseded(events), { enabled: true, minBytes: 0 });
    expect(sent(out)).toEqual([[supersededStub(A1.uri, 2)], [], [A1.uri]]);
    // And the same stream unstubbed deduplicates as before.
    expect(sent(dedupeResources(events, { enabled: true, minBytes: 0 }))[2]![0]).toMatch(/^\[unchanged: same content as file:\/\/\/w\/a\.txt attached in turn 0/);
  });

  it('keeps the prefix stable: the conversion of a longer stream begins with that of a shorter one', () => {
    const short = [...turn(0, [A1]), ...turn(1, [A2]), ...turn(9, [B], [{ turn: 0, uri: A1.uri }])];
    const long = [...short, ...turn(10, [A3]), ...turn(11)];
    const a = dedupeResources(stubSuperseded(short), { enabled: true, minBytes: 0 });
    const b = dedupeResources(stubSuperseded(long), { enabled: true, minBytes: 0 }).slice(0, a.length);
    expect(b).toEqual(a);
  });
});
