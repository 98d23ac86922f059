/*
 * Named points in the store where a test can make jp die or fail on purpose, so a crash or a full
 * disk lands exactly at the write a test names (issue T). Inert unless the variables are set; they
 * are read at each call, so a test sets them in the child's environment only.
 *
 *   JP_TEST_CRASH_AT=<point>   SIGKILL this process when it reaches <point>
 *   JP_TEST_ENOSPC_AT=<point>  throw ENOSPC (as the write would) when it reaches <point>
 *
 * Points are plain strings such as "blob-write", "pack-write", "events-append",
 * "migration:<step>" (metadata.json is written once, with the conversation: no rename point).
 */

/** Dies here with SIGKILL when `JP_TEST_CRASH_AT` names `point`. */
export function crashPoint(point: string): void {
  if (process.env.JP_TEST_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
}

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
