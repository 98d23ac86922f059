import fs from 'node:fs';
import type { FileStamp } from '../handler.ts';

/**
 * How long after its last change a file's stamp is trusted to identify its content. A file
 * changed again within its clock tick would keep the stamp (git calls such entries "racily
 * clean"), and file systems keep times as coarsely as 2 s (FAT): only a stamp older than this,
 * when taken, is remembered, so any later change gets a different one.
 */
export const SETTLED_AFTER_MS = 2_500;

/** The stamp of a regular file, or `undefined` for anything else and any error (the read reports those). */
export function fileStamp(realPath: string): FileStamp | undefined {
  let stats: fs.Stats | undefined;
  try {
    stats = fs.statSync(realPath, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (stats === undefined || !stats.isFile()) return undefined;
  return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
}

/** Whether a stamp taken at `takenAt` (ms since the epoch) may identify the content read after it. */
export function isSettled(stamp: FileStamp, takenAt: number): boolean {
  return Math.max(stamp.mtimeMs, stamp.ctimeMs) + SETTLED_AFTER_MS < takenAt;
}
