import type { ConversationEvent, FreshnessNotice } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { decideNotices, displayName, isWatchable, newestSnapshots, snapshotsToCheck, type NewestSnapshot } from './freshness-notices.ts';

const ROOT = '/w';
const uri = (name: string) => `file:///w/${name}`;
const ref = (name: string, sha256: string) => ({ uri: uri(name), ref: { sha256, byteLength: 1, encoding: 'text' as const } });
const sha = (c: string) => c.repeat(64);
const turn = (): ConversationEvent => ({ type: 'turn_start', timestamp: 't' });
const request = (resources: unknown[], notices?: FreshnessNotice[]): ConversationEvent =>
  ({ type: 'chat_request', timestamp: 't', content: 'q', resources, ...(notices ? { notices } : {}) }) as ConversationEvent;
const notice = (name: string, status: 'changed' | 'missing', sha256?: string): FreshnessNotice => ({
  uri: uri(name),
  status,
  turn: 0,
  ...(sha256 ? { sha256 } : {}),
  text: `${name} ${status}`,
});

describe('newestSnapshots', () => {
  it('keeps the newest snapshot of each URI with its turn, whether attached or read by a tool', () => {
    const events: ConversationEvent[] = [
      turn(),
      request([ref('a.rs', sha('a')), ref('b.rs', sha('b'))]),
      turn(),
      request([]),
      { type: 'tool_call_request', timestamp: 't', id: '1', name: 'refresh_resource', arguments: {} } as ConversationEvent,
      { type: 'tool_call_response', timestamp: 't', id: '1', content: [{ type: 'resource', resource: ref('a.rs', sha('c')) }] } as ConversationEvent,
    ];
    expect(newestSnapshots(events)).toEqual([
      { uri: uri('a.rs'), sha256: sha('c'), turn: 1, attached: false },
      { uri: uri('b.rs'), sha256: sha('b'), turn: 0, attached: true },
    ]);
  });

  it('remembers a notice given after the newest snapshot, and forgets it when a newer snapshot comes', () => {
    const told = notice('a.rs', 'changed', sha('d'));
    const noticed = newestSnapshots([turn(), request([ref('a.rs', sha('a'))]), turn(), request([], [told])]);
    expect(noticed[0]!.noticed).toEqual(told);
    const refreshed = newestSnapshots([turn(), request([ref('a.rs', sha('a'))]), turn(), request([], [told]), turn(), request([ref('a.rs', sha('d'))])]);
    expect(refreshed[0]!.noticed).toBeUndefined();
  });
});

describe('snapshotsToCheck', () => {
  const snapshots: NewestSnapshot[] = [
    { uri: uri('src/a.rs'), sha256: sha('a'), turn: 0, attached: true },
    { uri: uri('docs/b.md'), sha256: sha('b'), turn: 0, attached: true },
    { uri: `external:${sha('e')}/x.txt`, sha256: sha('e'), turn: 0, attached: true },
    { uri: 'stdin:1', sha256: sha('f'), turn: 0, attached: true },
    { uri: 'cmd:git status', sha256: sha('g'), turn: 0, attached: true },
  ];
  const covers = (declaration: string, target: string) =>
    declaration === target || (declaration.endsWith('/') && target.startsWith(uri(declaration))) || declaration === 'everything';

  it('checks only file URIs a notify declaration covers, never external:, stdin: or cmd:', () => {
    const checked = snapshotsToCheck(snapshots, [{ url: 'everything', refresh: 'notify' }], covers, new Set());
    expect(checked.map((s) => s.uri)).toEqual([uri('src/a.rs'), uri('docs/b.md')]);
  });

  it('skips what a manual declaration covers, what no declaration covers, and what this turn attaches again', () => {
    const declarations = [
      { url: 'src/', refresh: 'manual' as const },
      { url: 'docs/', refresh: 'notify' as const },
    ];
    expect(snapshotsToCheck(snapshots, declarations, covers, new Set()).map((s) => s.uri)).toEqual([uri('docs/b.md')]);
    expect(snapshotsToCheck(snapshots, declarations, covers, new Set([uri('docs/b.md')]))).toEqual([]);
    // No declaration covers a snapshot: nothing is checked.
    expect(snapshotsToCheck(snapshots, [], covers, new Set())).toEqual([]);
  });

  it('watches file declarations only: a cmd:, http or MCP declaration is never re-run between turns', () => {
    expect(isWatchable('src/')).toBe(true);
    expect(isWatchable('file:///w/src/a.rs')).toBe(true);
    expect(isWatchable('cmd:git status')).toBe(false);
    expect(isWatchable('https://example.com/a')).toBe(false);
    expect(isWatchable('mcp+fs+file:///a')).toBe(false);
    expect(isWatchable(`external:${sha('e')}/x.txt`)).toBe(false);
    expect(snapshotsToCheck(snapshots, [{ url: 'cmd:git status', refresh: 'notify' }], (d, u) => d === u || u.startsWith('file:'), new Set())).toEqual([]);
  });
});

describe('decideNotices', () => {
  const a: NewestSnapshot = { uri: uri('src/main.rs'), sha256: sha('a'), turn: 5, attached: true };
  const b: NewestSnapshot = { uri: uri('gone.txt'), sha256: sha('b'), turn: 2, attached: false };

  it('says what changed and what was deleted, naming the path and the turn', () => {
    expect(decideNotices([a, b], [{ status: 'changed', sha256: sha('c') }, { status: 'missing' }], ROOT)).toEqual([
      { uri: a.uri, status: 'changed', turn: 5, sha256: sha('c'), text: 'src/main.rs changed since it was attached in turn 5 (call refresh_resource to read it)' },
      { uri: b.uri, status: 'missing', turn: 2, text: 'gone.txt was deleted since it was read in turn 2' },
    ]);
  });

  it('gives nothing for a fresh source or one that could not be checked', () => {
    expect(decideNotices([a, b], [{ status: 'fresh', sha256: sha('a') }, { status: 'unknown' }], ROOT)).toEqual([]);
  });

  it('tells a change once, and again when the file changes once more', () => {
    const told = { ...a, noticed: notice('src/main.rs', 'changed', sha('c')) };
    expect(decideNotices([told], [{ status: 'changed', sha256: sha('c') }], ROOT)).toEqual([]);
    expect(decideNotices([told], [{ status: 'changed', sha256: sha('d') }], ROOT)).toHaveLength(1);
    expect(decideNotices([told], [{ status: 'missing' }], ROOT)).toHaveLength(1);
    const gone = { ...b, noticed: notice('gone.txt', 'missing') };
    expect(decideNotices([gone], [{ status: 'missing' }], ROOT)).toEqual([]);
  });

  it('names a file outside the workspace root by its URI', () => {
    expect(displayName('file:///elsewhere/x', ROOT)).toBe('file:///elsewhere/x');
    expect(displayName(uri('a/b.txt'), ROOT)).toBe('a/b.txt');
  });
});
