import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LockedError } from '@jp/core';
import { deadPid } from './__fixtures__/dead-pid.ts';
import { acquireLock } from './conversation-lock.ts';

const lockFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'jp-lock-')), 'lock');

describe('conversation lock', () => {
  it('is exclusive: a second taker waits, then fails naming the holder', async () => {
    const file = lockFile();
    const release = await acquireLock(file, { timeoutMs: 1000, what: 'conversation c' });
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    // A fake clock: the taker must still be waiting just before its timeout and give up at it.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    let error: unknown;
    try {
      let settled = false;
      const taking = acquireLock(file, { timeoutMs: 200, pollMs: 20, what: 'conversation c' }).then(
        () => (settled = true),
        (caught: unknown) => ((settled = true), (error = caught)),
      );
      await vi.advanceTimersByTimeAsync(190);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      await taking;
    } finally {
      vi.useRealTimers();
    }
    expect(error).toBeInstanceOf(LockedError);
    expect((error as LockedError).exitCode).toBe(5);
    expect((error as LockedError).message).toMatch(new RegExp(`conversation c is locked by process ${process.pid}`));
    release();
    expect(existsSync(file)).toBe(false);
  });

  it('tells a waiter once, after waitNoticeMs, who holds the lock; not at all when the wait is shorter', async () => {
    const file = lockFile();
    const release = await acquireLock(file, { timeoutMs: 1000, what: 'conversation c' });
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    const told: unknown[] = [];
    try {
      const taking = acquireLock(file, { timeoutMs: 3000, pollMs: 50, what: 'conversation c', onWait: (owner) => told.push(owner) }).catch((caught: unknown) => caught);
      await vi.advanceTimersByTimeAsync(950);
      expect(told).toEqual([]);
      await vi.advanceTimersByTimeAsync(100);
      expect(told).toEqual([expect.objectContaining({ pid: process.pid, host: hostname() })]);
      await vi.advanceTimersByTimeAsync(2000);
      expect(await taking).toBeInstanceOf(LockedError);
      expect(told).toHaveLength(1);
      const short = acquireLock(file, { timeoutMs: 500, pollMs: 50, what: 'conversation c', onWait: (owner) => told.push(owner) }).catch((caught: unknown) => caught);
      await vi.advanceTimersByTimeAsync(600);
      expect(await short).toBeInstanceOf(LockedError);
      expect(told).toHaveLength(1);
    } finally {
      vi.useRealTimers();
      release();
    }
  });

  it('is handed over when the holder releases while another waits', async () => {
    const file = lockFile();
    const release = await acquireLock(file, { timeoutMs: 1000, what: 'c' });
    setTimeout(release, 100);
    const second = await acquireLock(file, { timeoutMs: 2000, pollMs: 10, what: 'c' });
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    second();
  });

  it('takes over a lock whose holder is dead', async () => {
    const file = lockFile();
    writeFileSync(file, JSON.stringify({ pid: await deadPid(), host: hostname(), since: 'then' }));
    const release = await acquireLock(file, { timeoutMs: 0, what: 'c' });
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('leaves nothing beside the lock file, neither its taker nor one that waited for it', async () => {
    const file = lockFile();
    const release = await acquireLock(file, { timeoutMs: 1000, what: 'c' });
    await acquireLock(file, { timeoutMs: 50, pollMs: 5, what: 'c' }).catch(() => undefined);
    expect(readdirSync(path.dirname(file))).toEqual(['lock']);
    release();
    expect(readdirSync(path.dirname(file))).toEqual([]);
  });

  it('takes over a stale lock that holds no owner, and leaves no guard file', async () => {
    const file = lockFile();
    writeFileSync(file, '');
    utimesSync(file, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const release = await acquireLock(file, { timeoutMs: 0, what: 'c' });
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    expect(readdirSync(path.dirname(file))).toEqual(['lock']);
    release();
  });

  it('only one of many contenders for a stale lock wins at a time', async () => {
    const file = lockFile();
    writeFileSync(file, JSON.stringify({ pid: await deadPid(), host: hostname(), since: 'then' }));
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const release = await acquireLock(file, { timeoutMs: 5000, pollMs: 5, what: 'c' });
        inside++;
        maxInside = Math.max(maxInside, inside);
        await new Promise((resolve) => setTimeout(resolve, 10));
        inside--;
        release();
      }),
    );
    expect(maxInside).toBe(1);
  });
});
