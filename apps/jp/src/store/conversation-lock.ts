import { existsSync, linkSync, readFileSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { LockedError } from '@jp/core';
import { writeTemporaryFile } from './atomic-write.ts';
import { processIsAlive } from './process-is-alive.ts';
import { writeFailure } from './write-fully.ts';

/** Who holds a lock, as written in the lock file. */
export interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

export interface LockOptions {
  /** How long to wait for another holder before giving up (ms). */
  timeoutMs: number;
  /** Polling interval while waiting (ms). */
  pollMs?: number;
  /** Shown in the error: what is locked ("conversation X"). */
  what: string;
  /**
   * Told once when the wait passes `waitNoticeMs` (default 1 s), with the holder as the lock file
   * names it, so that a person knows what jp is waiting for (issue W).
   */
  onWait?: ((owner: LockOwner | undefined) => void) | undefined;
  waitNoticeMs?: number;
}

export type ReleaseLock = () => void;

function readOwner(file: string): LockOwner | undefined {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockOwner>;
    if (typeof json.pid === 'number' && typeof json.host === 'string') return json as LockOwner;
  } catch {
    // Unreadable or half-written: the caller decides by the file's age.
  }
  return undefined;
}

/**
 * Creates `file` holding this process as its owner, or returns false when it exists. The owner is
 * written to a temporary file that is then linked to the name (which fails if it is taken), so a
 * lock is never seen empty, and a disk too full for the owner leaves no lock, only an error.
 */
function tryCreate(file: string): boolean {
  // While another holds the lock, waiting costs a stat per poll, not a file written and removed.
  if (existsSync(file)) return false;
  const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const tmp = writeTemporaryFile(file, JSON.stringify(owner), false);
  try {
    linkSync(tmp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw writeFailure(error, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * A lock is stale when its owner, on this host, is no longer running, or when it has no readable
 * owner and is older than a few seconds (damaged, or left by a version of jp that wrote the owner
 * after creating the file).
 */
function isStale(file: string): boolean {
  const owner = readOwner(file);
  if (!owner) return ageMs(file) > 5_000;
  return owner.host === hostname() && !processIsAlive(owner.pid);
}

/**
 * Removes a stale lock so that exactly one contender can take it over. Contenders first take a
 * short-lived guard file; under the guard they check staleness again and remove the lock. A guard
 * left by a contender that died is itself removed after a few seconds.
 */
function breakStaleLock(file: string): void {
  const guard = `${file}.takeover`;
  if (!tryCreate(guard)) {
    if (ageMs(guard) > 5_000) rmSync(guard, { force: true });
    return;
  }
  try {
    if (isStale(file)) rmSync(file, { force: true });
  } finally {
    rmSync(guard, { force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Takes an exclusive lock (a file holding the owner's pid, created whole by `tryCreate`). Waits
 * up to `timeoutMs` for a live holder, takes over from a dead one, and otherwise throws
 * LockedError naming the holder.
 */
export async function acquireLock(file: string, options: LockOptions): Promise<ReleaseLock> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  const poll = options.pollMs ?? 50;
  let told = options.onWait === undefined;
  for (;;) {
    if (tryCreate(file)) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const owner = readOwner(file);
        if (owner?.pid === process.pid) rmSync(file, { force: true });
      };
    }
    if (isStale(file)) {
      breakStaleLock(file);
      continue;
    }
    if (Date.now() >= deadline) {
      const owner = readOwner(file);
      const holder = owner ? `process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}` : 'another process';
      const waited = (options.timeoutMs / 1000).toFixed(options.timeoutMs % 1000 === 0 ? 0 : 1);
      throw new LockedError(
        `${options.what} is locked by ${holder} (waited ${waited} s); try again when it finishes, or wait longer with --lock-timeout SECS (conversation.lock_timeout_secs)`,
        owner?.pid,
      );
    }
    if (!told && Date.now() - started >= (options.waitNoticeMs ?? 1000)) {
      told = true;
      options.onWait!(readOwner(file));
    }
    await sleep(Math.min(poll, Math.max(1, deadline - Date.now())));
  }
}
