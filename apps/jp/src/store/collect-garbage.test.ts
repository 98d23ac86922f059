import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockedError, resolveResourceContent, type ConversationEvent, type Resource } from '@jp/core';
import { deadPid } from './__fixtures__/dead-pid.ts';
import { sandboxedGit } from './__fixtures__/sandboxed-git.ts';
import { resourceSha256 } from './blob-sha256.ts';
import { PACK_FROM, sha256Of } from './blob-store.ts';
import { collectGarbage } from './collect-garbage.ts';
import { ConversationStore } from './conversation-store.ts';
import { appendLines } from './append-lines.ts';
import { storedLine } from './stored-resource.ts';

const timestamp = '2026-01-01T00:00:00.000Z';
const store = () => new ConversationStore(path.join(mkdtempSync(path.join(tmpdir(), 'jp-gc-')), '.jp'));
const resource = (name: string, text: string): Resource => ({ uri: `file:///w/${name}`, text });
const turn = (resources: Resource[]): ConversationEvent[] => [
  { type: 'turn_start', timestamp },
  { type: 'chat_request', timestamp, content: 'q', resources },
];
const kept = resource('kept.txt', 'kept by a conversation');
const orphan = resource('orphan.txt', 'only in a removed conversation');

describe('jp gc (collectGarbage)', () => {
  it('removes only blobs no conversation refers to, with their size, and stale temporary files', async () => {
    const s = store();
    await s.create({ baseConfig: {}, events: turn([kept, { ...resource('page', '<p>'), formatted: 'shown' }]), turnCount: 1 }, s.openContent());
    const doomed = await s.create({ baseConfig: {}, events: turn([kept, orphan]), turnCount: 1 }, s.openContent());
    s.remove(doomed);
    const stale = path.join(s.blobs.dir, 'ab', `.${'ab'.repeat(32)}.123.cafe.tmp`);
    mkdirSync(path.dirname(stale), { recursive: true });
    writeFileSync(stale, 'half written');
    expect(await collectGarbage(s)).toEqual({ removed: 1, bytes: Buffer.byteLength('only in a removed conversation'), tracked: 0 });
    expect(existsSync(s.blobs.path(resourceSha256(orphan)))).toBe(false);
    expect(existsSync(s.blobs.path(resourceSha256(kept)))).toBe(true);
    expect(existsSync(s.blobs.path(sha256Of(Buffer.from('shown'))))).toBe(true);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(path.dirname(stale))).toBe(false);
    expect(await collectGarbage(s)).toEqual({ removed: 0, bytes: 0, tracked: 0 });
  });

  it('removes what a killed create, fork or remove left, and the blobs only it referred to; a running one keeps its own', async () => {
    const s = store();
    const keeper = await s.create({ baseConfig: {}, events: turn([kept]), turnCount: 1 }, s.openContent());
    const dead = await deadPid();
    const created = await s.create({ baseConfig: {}, events: turn([orphan]), turnCount: 1 }, s.openContent());
    renameSync(s.dir(created), path.join(s.root, `.new-${created}-${dead}`));
    const removed = resource('removed.txt', 'in a conversation whose removal was killed');
    const doomed = await s.create({ baseConfig: {}, events: turn([removed]), turnCount: 1 }, s.openContent());
    renameSync(s.dir(doomed), path.join(s.root, `.rm-${doomed}-${dead}`));
    const busy = resource('busy.txt', 'in a conversation still being created');
    const creating = await s.create({ baseConfig: {}, events: turn([busy]), turnCount: 1 }, s.openContent());
    const running = `.new-${creating}-${process.pid}`;
    renameSync(s.dir(creating), path.join(s.root, running));
    const bytes = Buffer.byteLength('only in a removed conversation') + Buffer.byteLength('in a conversation whose removal was killed');
    expect(await collectGarbage(s)).toEqual({ removed: 2, bytes, tracked: 0 });
    expect(readdirSync(s.root).sort()).toEqual([keeper, running].sort());
    for (const gone of [orphan, removed]) expect(existsSync(s.blobs.path(resourceSha256(gone)))).toBe(false);
    for (const still of [kept, busy]) expect(existsSync(s.blobs.path(resourceSha256(still)))).toBe(true);
  });

  it('keeps blobs a damaged or torn line refers to', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [], turnCount: 0 }, s.openContent());
    const payloads = new Map<string, Uint8Array>();
    const line = storedLine(turn([orphan])[1]!, payloads, s.openContent());
    await s.blobs.putAll(payloads);
    appendFileSync(path.join(s.dir(id), 'events.jsonl'), line.slice(0, line.indexOf('"size"'))); // torn after the reference
    expect(await collectGarbage(s)).toEqual({ removed: 0, bytes: 0, tracked: 0 });
    expect(existsSync(s.blobs.path(resourceSha256(orphan)))).toBe(true);
  });

  it('waits for a writer between storing its blobs and appending its line, and then keeps them', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [], turnCount: 0 }, s.openContent());
    // A writer as ConversationStore.append does it: lock, store blobs, (time passes), append, release.
    const release = await s.lockBlobs();
    const payloads = new Map<string, Uint8Array>();
    const content = s.openContent();
    const lines = turn([orphan]).map((event) => storedLine(event, payloads, content));
    await s.blobs.putAll(payloads);
    let finished = false;
    const gc = collectGarbage(s, 5_000).then((report) => ((finished = true), report));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(finished).toBe(false);
    appendLines(path.join(s.dir(id), 'events.jsonl'), lines);
    release();
    expect(await gc).toEqual({ removed: 0, bytes: 0, tracked: 0 });
    const loaded = await s.events(id, content);
    expect(resolveResourceContent(loaded.events, (ref) => content.read(ref))).toEqual(turn([orphan]));
  });

  it('refuses, deleting nothing, when the blob store stays locked past its timeout', async () => {
    const s = store();
    const doomed = await s.create({ baseConfig: {}, events: turn([orphan]), turnCount: 1 }, s.openContent());
    s.remove(doomed);
    const release = await s.lockBlobs();
    try {
      const error = await collectGarbage(s, 150).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LockedError);
      expect((error as LockedError).message).toMatch(/blob store of this workspace .* is locked by process \d+/);
      expect(readdirSync(path.dirname(s.blobs.path(resourceSha256(orphan))))).toEqual([resourceSha256(orphan)]);
    } finally {
      release();
    }
    expect((await collectGarbage(s)).removed).toBe(1);
  });

  it('deletes a pack nothing refers to, and rewrites one that is partly referenced', async () => {
    const s = store();
    const many = (prefix: string) => Array.from({ length: PACK_FROM }, (_, i) => resource(`${prefix}${i}.txt`, `${prefix} ${i} ${'y'.repeat(i)}`));
    const keptTree = many('kept');
    const goneTree = many('gone');
    const mixed = many('mixed');
    await s.create({ baseConfig: {}, events: turn(keptTree), turnCount: 1 }, s.openContent());
    const doomed = await s.create({ baseConfig: {}, events: turn(goneTree), turnCount: 1 }, s.openContent());
    const half = await s.create({ baseConfig: {}, events: turn(mixed), turnCount: 1 }, s.openContent());
    expect(readdirSync(s.blobs.packsDir)).toHaveLength(3);
    await s.create({ baseConfig: {}, events: turn(mixed.slice(0, 5)), turnCount: 1 }, s.openContent()); // keeps 5 of the third pack's blobs
    s.remove(doomed);
    s.remove(half);
    const bytesOf = (resources: Resource[]) => resources.reduce((sum, r) => sum + Buffer.byteLength((r as { text: string }).text), 0);
    expect(await collectGarbage(s)).toEqual({ removed: PACK_FROM + PACK_FROM - 5, bytes: bytesOf(goneTree) + bytesOf(mixed.slice(5)), tracked: 0 });
    // Two packs remain: the untouched one and the rewritten one holding the 5 survivors.
    const packs = readdirSync(s.blobs.packsDir);
    expect(packs).toHaveLength(2);
    const fresh = new ConversationStore(s.jpDir);
    for (const r of [...keptTree, ...mixed.slice(0, 5)]) expect(fresh.blobs.has(resourceSha256(r), Buffer.byteLength((r as { text: string }).text))).toBe(true);
    for (const r of [...goneTree, ...mixed.slice(5)]) expect(fresh.blobs.read(resourceSha256(r), 'test')).toBeUndefined();
    // Every remaining conversation still loads with its content.
    for (const id of fresh.ids()) expect((await fresh.events(id, fresh.openContent())).events.length).toBeGreaterThan(0);
    expect(await collectGarbage(s)).toEqual({ removed: 0, bytes: 0, tracked: 0 });
  });
});

describe('jp gc and git (RFD 029)', () => {
  it('keeps an unreferenced blob and a pack that git tracks, deletes what git does not track', async () => {
    const { root, git } = sandboxedGit('jp-gc-git-');
    git(root, 'init', '-q');
    const s = new ConversationStore(path.join(root, '.jp'));
    const tracked = await s.create({ baseConfig: {}, events: turn([resource('a.txt', 'committed, then unreferenced')]), turnCount: 1 }, s.openContent());
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'one conversation');
    const untracked = await s.create({ baseConfig: {}, events: turn([resource('b.txt', 'never committed')]), turnCount: 1 }, s.openContent());
    s.remove(tracked);
    s.remove(untracked);
    expect(await collectGarbage(s)).toEqual({ removed: 1, bytes: Buffer.byteLength('never committed'), tracked: 1 });
    // The committed blob is still in the work tree: git sees no deletion under .jp/blobs.
    expect(git(root, 'status', '--porcelain', '--', '.jp/blobs')).toBe('');
  });
});
