import { describe, expect, it } from 'vitest';
import type { ConversationEvent, Resource } from '@jp/core';
import { decideNewFileNotices } from './new-file-notices.ts';

const at = '2026-01-01T00:00:00.000Z';
const ref = (path: string): Resource => ({ uri: `file:///w/${path}`, name: path, mimeType: 'text/plain', ref: { sha256: 'a'.repeat(64), size: 3, encoding: 'text' } });
const turn = (resources: Resource[], notices: ConversationEvent extends never ? never : Array<Record<string, unknown>> = []): ConversationEvent[] => [
  { type: 'turn_start', timestamp: at },
  { type: 'chat_request', timestamp: at, content: 'q', resources, ...(notices.length > 0 ? { notices } : {}) } as ConversationEvent,
  { type: 'chat_response', timestamp: at, message: 'a' },
];
/** `src/` covers everything under file:///w/src/. */
const covers = (declaration: string, uri: string) => declaration === 'src/' && uri.startsWith('file:///w/src/');
const decide = (history: ConversationEvent[], listed: string[] | undefined, options: { refresh?: 'notify' | 'manual'; attachedNow?: string[] } = {}) =>
  decideNewFileNotices({
    history,
    declarations: [{ url: 'src/', refresh: options.refresh ?? 'notify' }],
    listed: new Map([['src/', listed]]),
    covers,
    attachedNow: new Set(options.attachedNow ?? []),
    workspaceRoot: '/w',
  });

describe('decideNewFileNotices', () => {
  const history = [...turn([]), ...turn([ref('src/a.ts'), ref('src/b.ts')])];
  const now = ['file:///w/src/a.ts', 'file:///w/src/b.ts', 'file:///w/src/c.ts'];

  it('tells of a file under a declared directory that the conversation has no snapshot of, naming the turn the directory was read in', () => {
    expect(decide(history, now)).toEqual([
      { uri: 'file:///w/src/c.ts', status: 'new', turn: 1, declaration: 'src/', text: 'src/c.ts is new under src/ (declared in turn 1; call refresh_resource to read it)' },
    ]);
  });

  it('says nothing for a manual declaration, one not a directory or glob, one not read yet, or a file attached this turn', () => {
    expect(decide(history, now, { refresh: 'manual' })).toEqual([]);
    expect(decide(history, undefined)).toEqual([]);
    expect(decide(turn([]), now)).toEqual([]);
    expect(decide(history, now, { attachedNow: ['file:///w/src/c.ts'] })).toEqual([]);
  });

  it('tells once: a request that already carried the notice, or a snapshot of the file, ends it', () => {
    const told = [...history, ...turn([], [{ uri: 'file:///w/src/c.ts', status: 'new', turn: 1, declaration: 'src/', text: 'x' }])];
    expect(decide(told, now)).toEqual([]);
    const refreshed: ConversationEvent[] = [
      ...history,
      { type: 'turn_start', timestamp: at },
      { type: 'chat_request', timestamp: at, content: 'q', resources: [] },
      { type: 'tool_call_request', timestamp: at, id: 't', name: 'refresh_resource', arguments: {} },
      { type: 'tool_call_response', timestamp: at, id: 't', isError: false, content: [{ type: 'resource', resource: ref('src/c.ts') }] },
    ];
    expect(decide(refreshed, now)).toEqual([]);
  });
});
