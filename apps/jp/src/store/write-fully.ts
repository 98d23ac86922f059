import { writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { JpError } from '@jp/core';

/*
 * Every write of the store goes through here: a write may take fewer bytes than it was given (a
 * full disk takes what fits and fails only on the next call), so each one is repeated until all
 * bytes are written, and the errors of a full disk become one message the user can act on.
 */

/** Why a write failed, for the errors a user can cure by making room. */
const NO_ROOM: Readonly<Record<string, string>> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is larger than the file system allows',
};

/** A write that took no byte: for a regular file that happens only when nothing more fits. */
function noProgress(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no byte could be written'), { code: 'ENOSPC' });
}

/** Writes all of `bytes` to `fd` (at `position`, or where the file's offset is). */
export function writeFullySync(fd: number, bytes: Uint8Array, position?: number): void {
  let done = 0;
  while (done < bytes.byteLength) {
    const written = writeSync(fd, bytes, done, bytes.byteLength - done, position === undefined ? null : position + done);
    if (written === 0) throw noProgress();
    done += written;
  }
}

/** Writes all of `chunks`, back to back, to `handle` (at `position`, or where the file's offset is). */
export async function writeFully(handle: FileHandle, chunks: readonly Uint8Array[], position?: number): Promise<void> {
  let pending = chunks.filter((chunk) => chunk.byteLength > 0);
  let at = position;
  while (pending.length > 0) {
    const { bytesWritten } = await handle.writev(pending, at);
    if (bytesWritten === 0) throw noProgress();
    if (at !== undefined) at += bytesWritten;
    pending = after(pending, bytesWritten);
  }
}

/** What is left of `chunks` once their first `count` bytes are written. */
function after(chunks: Uint8Array[], count: number): Uint8Array[] {
  let skip = count;
  let first = 0;
  while (first < chunks.length && skip >= chunks[first]!.byteLength) skip -= chunks[first++]!.byteLength;
  const rest = chunks.slice(first);
  if (skip > 0) rest[0] = rest[0]!.subarray(skip);
  return rest;
}

/** `file` as the user knows it: from the workspace's `.jp/` on when it is inside one. */
export function shownPath(file: string): string {
  const parts = path.resolve(file).split(path.sep);
  const jp = parts.lastIndexOf('.jp');
  return jp < 0 ? file : parts.slice(jp).join('/');
}

/**
 * The error to throw for a failure to write `file`: a full disk (or quota) becomes a one-line
 * JpError naming the file and the cure; any other error is returned as it is.
 */
export function writeFailure(error: unknown, file: string): unknown {
  const reason = NO_ROOM[(error as NodeJS.ErrnoException | undefined)?.code ?? ''];
  if (reason === undefined) return error;
  return new JpError(`could not write ${shownPath(file)}: ${reason}; free some space and run the command again`, { code: 'disk_full', cause: error });
}
