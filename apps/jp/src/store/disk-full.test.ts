import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statfsSync, writeFileSync, writeSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JpError } from '@jp/core';
import { deadPid } from './__fixtures__/dead-pid.ts';
import { appendLines } from './append-lines.ts';
import { writeFileAtomic, writeFileDurably } from './atomic-write.ts';
import { readPackIndex, sealPack, writePack } from './blob-pack.ts';
import { sha256Of } from './blob-sha256.ts';
import { acquireLock } from './conversation-lock.ts';

/*
 * Every kind of write of the store, on a real file system that runs out of space: a small tmpfs
 * of this test's own, filled to leave no room, a few KB, or half of what the write needs. Each
 * write must fail with one clear error and leave the files exactly as they were.
 */

const PAGE = 4096;
let mount: string;
let workspace: string;

beforeAll(() => {
  mount = mkdtempSync(path.join(tmpdir(), 'jp-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount], { stdio: 'pipe' });
  } catch (error) {
    rmSync(mount, { recursive: true, force: true });
    throw new Error(`these tests need a small tmpfs of their own, which only root can mount: ${String(error)}`);
  }
});

afterAll(() => {
  if (mount === undefined) return;
  execFileSync('umount', [mount]);
  rmSync(mount, { recursive: true, force: true });
});

afterEach(() => {
  rmSync(path.join(mount, 'filler'), { force: true });
  rmSync(workspace, { recursive: true, force: true });
});

function newWorkspace(): string {
  workspace = mkdtempSync(path.join(mount, 'w-'));
  return path.join(workspace, '.jp');
}

function freeBytes(): number {
  const stat = statfsSync(mount);
  return stat.bavail * stat.bsize;
}

/** Fills the tmpfs, then gives back `bytes` (whole pages). */
function leaveFree(bytes: number): void {
  const fd = openSync(path.join(mount, 'filler'), 'w');
  try {
    const chunk = Buffer.alloc(256 * 1024, 1);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    }
    ftruncateSync(fd, fstatSync(fd).size - bytes);
  } finally {
    closeSync(fd);
  }
  expect(freeBytes()).toBe(bytes);
}

/** No room, a few KB, half of a write of `size` bytes. */
const amounts = (size: number) => [0, 2 * PAGE, Math.floor(size / 2 / PAGE) * PAGE];

/** Every file under `dir` with its content: what a failed write must leave as it found it. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files[path.relative(dir, file)] = readFileSync(file).toString('base64');
    }
  }
  return files;
}

async function expectDiskFull(write: () => unknown, shown: string | RegExp): Promise<void> {
  const error = await (async () => write())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JpError);
  expect((error as JpError).exitCode).toBe(1);
  expect((error as JpError).code).toBe('disk_full');
  const message = (error as JpError).message;
  if (typeof shown === 'string') expect(message).toBe(`could not write ${shown}: the disk is full; free some space and run the command again`);
  else expect(message).toMatch(shown);
}

const bytes = (size: number, seed: number) => Buffer.alloc(size, seed);

describe('on a full disk', () => {
  const BLOB = 1_500_000;
  it.each(amounts(BLOB))('a blob is not stored, with %i bytes free', async (free) => {
    const jp = newWorkspace();
    const old = bytes(1000, 7);
    mkdirSync(path.join(jp, 'blobs', 'ab'), { recursive: true });
    writeFileSync(path.join(jp, 'blobs', 'ab', sha256Of(old)), old);
    const blob = bytes(BLOB, 9);
    const sha256 = sha256Of(blob);
    mkdirSync(path.join(jp, 'blobs', sha256.slice(0, 2)), { recursive: true });
    const before = snapshot(jp);
    leaveFree(free);
    const target = path.join(jp, 'blobs', sha256.slice(0, 2), sha256);
    await expectDiskFull(() => writeFileDurably(target, [blob.subarray(0, 1000), blob.subarray(1000, 700_000), blob.subarray(700_000)]), `.jp/blobs/${sha256.slice(0, 2)}/${sha256}`);
    expect(snapshot(jp)).toEqual(before);
    rmSync(path.join(mount, 'filler'));
    await writeFileDurably(target, [blob]);
    expect(sha256Of(readFileSync(target))).toBe(sha256);
  });

  const packBlobs = Array.from({ length: 24 }, (_, i) => bytes(64 * 1024, i)).map((b) => [sha256Of(b), b] as const);
  it.each(amounts(24 * 64 * 1024))('a pack is not stored, with %i bytes free', async (free) => {
    const jp = newWorkspace();
    const packs = path.join(jp, 'blobs', 'packs');
    mkdirSync(packs, { recursive: true });
    const { file: oldPack } = await writePack(packs, packBlobs.slice(0, 2));
    const before = snapshot(jp);
    leaveFree(free);
    await expectDiskFull(() => writePack(packs, packBlobs), /^could not write \.jp\/blobs\/packs\/[0-9a-f]{64}\.pack: the disk is full; free some space and run the command again$/);
    expect(snapshot(jp)).toEqual(before);
    expect(readPackIndex(oldPack).size).toBe(2);
  });

  // A spool file (blob-spool.ts) holding 3000 small blobs: its index is some 250 KB.
  const spooled = Array.from({ length: 3000 }, (_, i) => Buffer.from(`spooled blob ${i}`));
  const spoolRows = () => {
    let offset = 0;
    return spooled.map((b) => [sha256Of(b), (offset += b.byteLength) - b.byteLength, b.byteLength] as [string, number, number]);
  };
  it.each(amounts(3000 * 85))('a spool file is not sealed as a pack, and keeps its blobs, with %i bytes free', async (free) => {
    const jp = newWorkspace();
    const packs = path.join(jp, 'blobs', 'packs');
    mkdirSync(packs, { recursive: true });
    const spool = path.join(packs, `.spool-${process.pid}-abcdef.tmp`);
    writeFileSync(spool, Buffer.concat(spooled));
    const before = snapshot(jp);
    leaveFree(free);
    const end = Buffer.concat(spooled).byteLength;
    await expectDiskFull(() => sealPack(spool, spoolRows(), end), /^could not write \.jp\/blobs\/packs\/[0-9a-f]{64}\.pack: the disk is full; free some space and run the command again$/);
    expect(snapshot(jp)).toEqual(before);
    rmSync(path.join(mount, 'filler'));
    const { name } = await sealPack(spool, spoolRows(), end);
    expect(readPackIndex(spool).size).toBe(3000);
    expect(name).toMatch(/^[0-9a-f]{64}\.pack$/);
  });

  const oldLines = ['{"type":"turn_start","n":1}', '{"type":"chat_request","n":2}'];
  const newLines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ type: 'chat_response', n: i, text: 'z'.repeat(1000) }));
  it.each(amounts(300 * 1040))('lines are not appended, and the file keeps its lines, with %i bytes free', async (free) => {
    const jp = newWorkspace();
    const events = path.join(jp, 'conversations', 'c', 'events.jsonl');
    mkdirSync(path.dirname(events), { recursive: true });
    appendLines(events, oldLines);
    const before = snapshot(jp);
    leaveFree(free);
    await expectDiskFull(() => appendLines(events, newLines), '.jp/conversations/c/events.jsonl');
    expect(snapshot(jp)).toEqual(before);
    expect(readFileSync(events, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as unknown)).toHaveLength(2);
  });

  it('a complete last line without its newline stays as it was when lines cannot be appended', async () => {
    const jp = newWorkspace();
    const events = path.join(jp, 'conversations', 'c', 'events.jsonl');
    mkdirSync(path.dirname(events), { recursive: true });
    writeFileSync(events, `${oldLines[0]}\n${oldLines[1]}`);
    const before = snapshot(jp);
    leaveFree(0);
    await expectDiskFull(() => appendLines(events, newLines), '.jp/conversations/c/events.jsonl');
    expect(snapshot(jp)).toEqual(before);
  });

  const oldMetadata = '{"id":"c","title":"old"}\n';
  const bigFile = JSON.stringify({ version: 1, files: 'f'.repeat(300_000) });
  it.each(amounts(bigFile.length))('a file replaced atomically keeps its old content, with %i bytes free', async (free) => {
    const jp = newWorkspace();
    const file = path.join(jp, 'file-cache.json');
    mkdirSync(jp, { recursive: true });
    writeFileSync(file, oldMetadata);
    const before = snapshot(jp);
    leaveFree(free);
    await expectDiskFull(() => writeFileAtomic(file, bigFile), '.jp/file-cache.json');
    expect(snapshot(jp)).toEqual(before);
  });

  it('a small file (metadata) replaced atomically keeps its old content when nothing fits', async () => {
    const jp = newWorkspace();
    const file = path.join(jp, 'conversations', 'c', 'metadata.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, oldMetadata);
    const before = snapshot(jp);
    leaveFree(0);
    await expectDiskFull(() => writeFileAtomic(file, '{"id":"c","title":"new"}\n'), '.jp/conversations/c/metadata.json');
    expect(snapshot(jp)).toEqual(before);
    leaveFree(PAGE);
    writeFileAtomic(file, '{"id":"c","title":"new"}\n');
    expect(readFileSync(file, 'utf8')).toContain('new');
  });

  it('a lock is not taken, and no lock file is left, when its owner cannot be written', async () => {
    const jp = newWorkspace();
    const lock = path.join(jp, 'conversations', 'c', 'lock');
    mkdirSync(path.dirname(lock), { recursive: true });
    leaveFree(0);
    await expectDiskFull(() => acquireLock(lock, { timeoutMs: 0, what: 'conversation c' }), '.jp/conversations/c/lock');
    expect(snapshot(jp)).toEqual({});
    rmSync(path.join(mount, 'filler'));
    const release = await acquireLock(lock, { timeoutMs: 0, what: 'conversation c' });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid });
    release();
  });

  it('a stale lock is not taken over, and no guard file is left, when the guard cannot be written', async () => {
    const jp = newWorkspace();
    const lock = path.join(jp, 'conversations', 'c', 'lock');
    mkdirSync(path.dirname(lock), { recursive: true });
    writeFileSync(lock, JSON.stringify({ pid: await deadPid(), host: hostname(), since: 'then' }));
    const before = snapshot(jp);
    leaveFree(0);
    await expectDiskFull(() => acquireLock(lock, { timeoutMs: 0, what: 'conversation c' }), '.jp/conversations/c/lock.takeover');
    expect(snapshot(jp)).toEqual(before);
  });
});
