import { lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { processIsAlive } from './process-is-alive.ts';
import { crashPoint } from './test-hooks.ts';

/** What a create or fork builds (`.new-<id>-<pid>`) and what a remove deletes (`.rm-<id>-<pid>`), under temporary names. */
const LEFTOVER = /^\.(?:new|rm)-/;
const OWNER = /^\.(?:new|rm)-.+-(\d+)$/;

/** A leftover older than this is dead whatever its process id says (ids are reused). */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes what a create, fork or remove killed midway left in `conversationsDir`: a leftover
 * whose process no longer runs, whose name holds no process id, or that is older than a day.
 * Nothing refers to a leftover, but `jp gc` counts the blobs its lines refer to as in use until it
 * is gone. Returns how many were removed; `point` is the crash point after each (test-hooks.ts).
 */
export function removeDeadLeftovers(conversationsDir: string, point?: string): number {
  let names: string[];
  try {
    names = readdirSync(conversationsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!LEFTOVER.test(name)) continue;
    const file = path.join(conversationsDir, name);
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (stat === undefined) continue; // its owner finished meanwhile
    const pid = Number(OWNER.exec(name)?.[1]);
    // By modification time: a `.rm-` one may look old while its remove runs, but it goes anyway.
    const age = Date.now() - stat.mtimeMs;
    const alive = Number.isSafeInteger(pid) && pid > 0 && age <= MAX_AGE_MS && processIsAlive(pid);
    if (alive) continue;
    rmSync(file, { recursive: true, force: true });
    if (point !== undefined) crashPoint(point);
    removed += 1;
  }
  return removed;
}

/** A temporary file of a write (`temporaryPath`): `.<name>.<pid>.<hex>.tmp`. */
const TEMPORARY = /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/;

/**
 * Removes the temporary files a killed write left directly in `dir` (metadata, the active
 * pointer, a lock's owner, the file cache): those whose process no longer runs or that are older
 * than a day. Returns how many were removed.
 */
export function removeDeadTemporaries(dir: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const pid = Number(TEMPORARY.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    const file = path.join(dir, name);
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile()) continue;
    if (Date.now() - stat.mtimeMs <= MAX_AGE_MS && processIsAlive(pid)) continue;
    rmSync(file, { force: true });
    removed += 1;
  }
  return removed;
}
