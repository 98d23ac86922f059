import type { ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { FakeContent, turn } from './__fixtures__/page-fixture.ts';
import { snapshotStatuses } from './resource-status.ts';

describe('snapshotStatuses', () => {
  it('tells new, refreshed, deduplicated and superseded snapshots apart, without reading content', () => {
    const content = new FakeContent();
    const v1 = content.ref('file:///w/a.txt', 'one');
    const v2 = content.ref('file:///w/a.txt', 'two');
    const b = content.ref('file:///w/b.txt', 'bee');
    const events: ConversationEvent[] = [
      ...turn('q0', [v1, b], 'a'),
      ...turn('q1', [v2, b], 'a'),
      { type: 'turn_start', timestamp: 't' },
      { type: 'chat_request', timestamp: 't', content: 'q2', resources: [], superseded: [{ turn: 0, uri: 'file:///w/a.txt' }] },
      { type: 'tool_call_request', timestamp: 't', id: 'c1', name: 'read', arguments: {} },
      { type: 'tool_call_response', timestamp: 't', id: 'c1', isError: false, content: [{ type: 'resource', resource: v1 }] },
    ];
    const statuses = snapshotStatuses(events);
    expect(statuses.map((s) => [s.kind, s.supersededFrom, s.sameAsTurn])).toEqual([
      ['new', 2, undefined],
      ['new', undefined, undefined],
      ['refreshed', undefined, undefined],
      ['deduplicated', undefined, 0],
      ['refreshed', undefined, undefined],
    ]);
    expect(statuses[0]).toMatchObject({ sha256: v1.ref.sha256, size: 3 });
    // The superseded turn-0 snapshot names the turn that holds the newer content of its URI.
    expect(statuses.map((s) => s.newerIn)).toEqual([1, undefined, undefined, undefined, undefined]);
    expect(content.reads).toEqual([]);
  });

  it('hashes content stored inline (lines from before blobs)', () => {
    const [status] = snapshotStatuses(turn('q', [{ uri: 'u', text: 'abc' } as never], 'a'));
    expect(status!.sha256).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
