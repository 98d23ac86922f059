import { describe, expect, it } from 'vitest';
import type { ConversationEvent } from '@jp/core';
import { planTurnAttachments, urisInStream } from './resolve-turn-attachments.ts';

// A stand-in for a handler's `covers`: exact file, or anything under a declared directory.
const covers = (declaration: string, uri: string) =>
  declaration.endsWith('/') ? uri.startsWith(`file:///w/${declaration}`) : uri === `file:///w/${declaration}`;

describe('resolution rules', () => {
  it('a new conversation resolves every declaration', () => {
    expect(planTurnAttachments({ declared: ['a.txt', 'src/'], attached: [], streamUris: new Set(), covers })).toEqual({
      toResolve: ['a.txt', 'src/'],
      newDeclarations: [],
      snapshotOnly: [],
    });
  });

  it('a follow-up resolves nothing when every declaration is in the stream', () => {
    const stream = new Set(['file:///w/a.txt', 'file:///w/src/x.ts']);
    expect(planTurnAttachments({ declared: ['a.txt', 'src/'], attached: [], streamUris: stream, covers }).toResolve).toEqual([]);
  });

  it('--attach is resolved fresh even when already in the stream, and recorded only when new', () => {
    const stream = new Set(['file:///w/a.txt']);
    expect(planTurnAttachments({ declared: ['a.txt'], attached: ['a.txt', 'b.txt'], streamUris: stream, covers })).toEqual({
      toResolve: ['a.txt', 'b.txt'],
      newDeclarations: ['b.txt'],
      snapshotOnly: [],
    });
  });

  it('a declaration added since the last turn (attachment add) is resolved once', () => {
    const stream = new Set(['file:///w/a.txt']);
    expect(planTurnAttachments({ declared: ['a.txt', 'c.txt'], attached: [], streamUris: stream, covers }).toResolve).toEqual(['c.txt']);
  });

  it('a declared external: file missing from the stream is reported, not resolved', () => {
    const plan = planTurnAttachments({ declared: ['external:abc/report.pdf', 'a.txt'], attached: [], streamUris: new Set(), covers });
    expect(plan).toEqual({ toResolve: ['a.txt'], newDeclarations: [], snapshotOnly: ['external:abc/report.pdf'] });
  });

  it('the same --attach twice is resolved once', () => {
    expect(planTurnAttachments({ declared: [], attached: ['a.txt', 'a.txt'], streamUris: new Set(), covers }).toResolve).toEqual(['a.txt']);
  });

  it('collects URIs from attachments and tool results', () => {
    const events: ConversationEvent[] = [
      { type: 'chat_request', timestamp: 't', content: 'q', resources: [{ uri: 'file:///w/a.txt', text: 'a' }] },
      {
        type: 'tool_call_response',
        timestamp: 't',
        id: '1',
        isError: false,
        content: [{ type: 'text', text: 'x' }, { type: 'resource', resource: { uri: 'https://example.com/', text: 'e' } }],
      },
    ];
    expect([...urisInStream(events)]).toEqual(['file:///w/a.txt', 'https://example.com/']);
  });
});
