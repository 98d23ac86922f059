import { writeSync } from 'node:fs';

/*
 * Named points in the store where a test can make jp die or fail on purpose, so a crash or a full
 * disk lands exactly at the write a test names (issue T). Inert unless the variables are set; they
 * are read at each call, so a test sets them in the child's environment only.
 *
 *   JP_TEST_CRASH_AT=<point>   SIGKILL this process when it reaches <point>
 *   JP_TEST_ENOSPC_AT=<point>  throw ENOSPC (as the write would) when it reaches <point>
 *
 * A point names a write: ENOSPC is thrown while it is written, the crash comes right after it is
 * done (or, for an append, `<point>:torn` midway). The points are listed in RFD 030 ("blob-write", "create:files", "gc:delete-pack", …).
 */

/**
 * Dies here with SIGKILL when `JP_TEST_CRASH_AT` names `point`, saying so first on stderr, so a
 * test can tell its point from any other death (a timeout's kill, a crash elsewhere).
 */
export function crashPoint(point: string): void {
  if (process.env.JP_TEST_CRASH_AT !== point) return;
  writeSync(2, `${CRASH_NOTICE}${point}\n`);
  process.kill(process.pid, 'SIGKILL');
}

/** What a crash point writes to stderr before it dies, followed by its name. */
export const CRASH_NOTICE = 'jp test hook: killed at crash point ';

/** Throws the error a full disk gives when `JP_TEST_ENOSPC_AT` names `point`. */
export function enospcPoint(point: string, file: string): void {
  if (process.env.JP_TEST_ENOSPC_AT !== point) return;
  const error = new Error(`ENOSPC: no space left on device, write '${file}'`) as NodeJS.ErrnoException;
  error.code = 'ENOSPC';
  error.errno = -28;
  error.syscall = 'write';
  error.path = file;
  throw error;
}

/**
 * When `JP_TEST_CRASH_AT` names `<point>:torn`: writes only the first line of `payload`, as a write
 * cut short by a kill can leave it (whole lines of an unfinished append), then dies there.
 */
export function tornWritePoint(point: string, payload: Uint8Array, write: (part: Uint8Array) => void): void {
  if (process.env.JP_TEST_CRASH_AT !== `${point}:torn`) return;
  write(payload.subarray(0, payload.indexOf(0x0a) + 1));
  crashPoint(`${point}:torn`);
}

