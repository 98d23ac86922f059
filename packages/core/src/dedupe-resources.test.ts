import { describe, expect, it } from 'vitest';
import type { ContentBlock } from './content-block.ts';
import type { ChatRequestEvent, ConversationEvent, ToolCallResponseEvent } from './conversation-event.ts';
import { dedupeResources } from './dedupe-resources.ts';
import { hash } from 'node:crypto';
import type { Resource } from './resource.ts';

const sha256Hex = (data: string | Uint8Array) => hash('sha256', data, 'hex');

const timestamp = '2026-01-01T00:00:00.000Z';
const big = 'x'.repeat(400);
const on = { enabled: true, minBytes: 300 };

// The stream holds content references (the app stores content apart before converting a turn).
const text = (uri: string, content: string): Resource => ({
  uri,
  mimeType: 'text/plain',
  ref: { sha256: sha256Hex(content), size: Buffer.byteLength(content), encoding: 'text' },
});
const bytes = (uri: string, data: Uint8Array): Resource => ({ uri, mimeType: 'image/png', ref: { sha256: sha256Hex(data), size: data.byteLength, encoding: 'binary' } });
const turn = (resources: Resource[] = [], ...after: ConversationEvent[]): ConversationEvent[] => [
  { type: 'turn_start', timestamp },
  { type: 'chat_request', timestamp, content: 'q', resources },
  ...after,
];
const toolResult = (id: string, content: ContentBlock[]): ConversationEvent => ({ type: 'tool_call_response', timestamp, id, content, isError: false });

const requests = (events: ConversationEvent[]) => events.filter((e): e is ChatRequestEvent => e.type === 'chat_request');
const formattedOf = (events: ConversationEvent[]) => requests(events).map((request) => request.resources.map((r) => r.formatted));

describe('dedupeResources', () => {
  it('replaces a re-attached unchanged resource by a reference naming the earlier turn and the checksum', () => {
    const events = [...turn([text('file:///w/a.txt', big)]), ...turn(), ...turn([text('file:///w/a.txt', big)])];
    const out = dedupeResources(events, on);
    expect(formattedOf(out)).toEqual([
      [undefined],
      [],
      [`[unchanged: same content as file:///w/a.txt attached in turn 0 (sha256 ${sha256Hex(big)}); not repeated here]`],
    ]);
    // The content stays: only what the model is shown changes.
    expect(requests(out)[2]!.resources[0]).toMatchObject({ ref: { sha256: sha256Hex(big), encoding: 'text' } });
  });

  it('sends changed content, other URIs with the same content, and small resources in full', () => {
    const events = [
      ...turn([text('file:///w/a.txt', big), text('file:///w/small.txt', 'tiny')]),
      ...turn([text('file:///w/a.txt', `${big}!`), text('file:///w/copy.txt', big), text('file:///w/small.txt', 'tiny')]),
    ];
    expect(formattedOf(dedupeResources(events, on))).toEqual([
      [undefined, undefined],
      [undefined, undefined, undefined],
    ]);
    // With a lower threshold the small one is a repeat too.
    const low = formattedOf(dedupeResources(events, { enabled: true, minBytes: 1 }));
    expect(low[1]![2]).toMatch(/^\[unchanged: same content as file:\/\/\/w\/small\.txt attached in turn 0/);
  });

  it('counts minBytes in raw bytes, inclusive', () => {
    const exactly = 'é'.repeat(150); // 300 UTF-8 bytes, 150 characters
    const events = [...turn([text('file:///w/e.txt', exactly)]), ...turn([text('file:///w/e.txt', exactly)])];
    expect(formattedOf(dedupeResources(events, on))[1]![0]).toMatch(/^\[unchanged/);
    expect(formattedOf(dedupeResources(events, { enabled: true, minBytes: 301 }))[1]![0]).toBeUndefined();
  });

  it('does nothing when disabled', () => {
    const events = [...turn([text('file:///w/a.txt', big)]), ...turn([text('file:///w/a.txt', big)])];
    const out = dedupeResources(events, { enabled: false, minBytes: 0 });
    expect(out).toEqual(events);
    expect(formattedOf(out)).toEqual([[undefined], [undefined]]);
  });

  it('matches across tool results and attachments, both ways', () => {
    const refreshed = text('file:///w/a.txt', big);
    const events = [
      ...turn([text('file:///w/a.txt', big)]),
      ...turn([], toolResult('call_1', [{ type: 'text', text: 'here' }, { type: 'resource', resource: refreshed }])),
      ...turn([], toolResult('call_2', [{ type: 'resource', resource: text('file:///w/b.txt', big) }])),
      ...turn([text('file:///w/b.txt', big)]),
    ];
    const out = dedupeResources(events, on);
    const first = out.find((e): e is ToolCallResponseEvent => e.type === 'tool_call_response' && e.id === 'call_1')!;
    expect(first.content[0]).toEqual({ type: 'text', text: 'here' });
    const block = first.content[1] as { formatted?: string; resource: Resource };
    expect(block.formatted).toMatch(/^\[unchanged: same content as file:\/\/\/w\/a\.txt attached in turn 0 /);
    expect(block.resource.formatted).toBe(block.formatted);
    expect(formattedOf(out)[3]![0]).toMatch(/same content as file:\/\/\/w\/b\.txt returned by tool call call_2 in turn 2 /);
  });

  it('treats binary content alike, and keeps its reference', () => {
    const png = new Uint8Array(500).fill(7);
    const events = [...turn([bytes('file:///w/p.png', png)]), ...turn([bytes('file:///w/p.png', new Uint8Array(png))])];
    const out = requests(dedupeResources(events, on));
    expect(out[1]!.resources[0]!.formatted).toMatch(/^\[unchanged: same content as file:\/\/\/w\/p\.png attached in turn 0/);
    expect(out[1]!.resources[0]).toMatchObject({ ref: { sha256: sha256Hex(png), size: 500, encoding: 'binary' } });
  });

  it('sends two copies inside one event in full, and names the first delivery for later repeats', () => {
    const events = [
      ...turn([], toolResult('c1', [{ type: 'resource', resource: text('u:a', big) }, { type: 'resource', resource: text('u:a', big) }])),
      ...turn([text('u:a', big)]),
      ...turn([text('u:a', big)]),
    ];
    const out = dedupeResources(events, on);
    const result = out.find((e): e is ToolCallResponseEvent => e.type === 'tool_call_response')!;
    expect(result.content.map((b) => (b as { formatted?: string }).formatted)).toEqual([undefined, undefined]);
    expect(formattedOf(out).slice(1).map((r) => r[0])).toEqual([
      expect.stringContaining('returned by tool call c1 in turn 0'),
      expect.stringContaining('returned by tool call c1 in turn 0'),
    ]);
  });

  it('decides from earlier events only: a longer stream keeps the outcome of a shorter one', () => {
    const events = [
      ...turn([text('u:a', big)]),
      ...turn([text('u:a', big)], toolResult('c', [{ type: 'resource', resource: text('u:a', big) }])),
      ...turn([text('u:a', `${big}2`)]),
      ...turn([text('u:a', big)]),
    ];
    const full = dedupeResources(events, on);
    for (let end = 1; end <= events.length; end++) expect(dedupeResources(events.slice(0, end), on)).toEqual(full.slice(0, end));
  });

  it('never takes a resource with its content inline for a repeat: its digest is not known', () => {
    const inline: Resource = { uri: 'u:a', text: big };
    const events = [...turn([inline]), ...turn([inline]), ...turn([text('u:a', big)]), ...turn([text('u:a', big)])];
    expect(formattedOf(dedupeResources(events, on))).toEqual([[undefined], [undefined], [undefined], [expect.stringContaining('attached in turn 2')]]);
  });

  it('leaves its input alone and returns untouched events as they were', () => {
    const events = [...turn([text('u:a', big)]), ...turn([text('u:a', big)])];
    const copy = structuredClone(events);
    const out = dedupeResources(events, on);
    expect(events).toEqual(copy);
    expect(out[1]).toBe(events[1]);
    expect(out[3]).not.toBe(events[3]);
  });
});
