import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { crashPoint, enospcPoint } from './test-hooks.ts';
import { writeFailure, writeFully, writeFullySync } from './write-fully.ts';

/** A fresh name beside `file` for its content while it is written: hidden and ending in `.tmp`, as `jp gc` expects. */
export function temporaryPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Writes `data` whole to a new temporary file beside `file`, flushed when `flush` is true, and
 * returns its path for the caller to rename or link into place. On failure no temporary file is
 * left and the error names `file`.
 */
export function writeTemporaryFile(file: string, data: string | Uint8Array, flush: boolean, mode?: number): string {
  const tmp = temporaryPath(file);
  try {
    const fd = openSync(tmp, 'wx', mode ?? 0o644);
    try {
      // A mode asked for is the file's exactly, whatever the umask (a config file keeps its own).
      if (mode !== undefined) fchmodSync(fd, mode);
      writeFullySync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      if (flush) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    rmSync(tmp, { force: true });
    throw writeFailure(error, file);
  }
  return tmp;
}

/**
 * Writes a file so that readers see the old content or the new, never a mix: the bytes go to a
 * temporary file in the same directory, are flushed (unless `flush` is false: a cache, which may
 * be lost in a crash), and the file is renamed over the target.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: { flush?: boolean; mode?: number } = {}): void {
  const tmp = writeTemporaryFile(file, data, options.flush !== false, options.mode);
  try {
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw writeFailure(error, file);
  }
}

/**
 * Writes `chunks` back to back as a new file that is durable when the promise resolves: temporary
 * file in the same directory, write, fsync, rename. The caller flushes the directory (once for
 * many files). A failure removes the temporary file.
 */
export async function writeFileDurably(file: string, chunks: readonly Uint8Array[], point?: string): Promise<void> {
  const tmp = temporaryPath(file);
  try {
    const handle = await open(tmp, 'wx', 0o644);
    try {
      if (point !== undefined) enospcPoint(point, file);
      await writeFully(handle, chunks);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
    if (point !== undefined) crashPoint(point);
  } catch (error) {
    await rm(tmp, { force: true });
    throw writeFailure(error, file);
  }
}
