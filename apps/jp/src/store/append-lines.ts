import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, rmSync } from 'node:fs';
import { crashPoint, enospcPoint, tornWritePoint } from './test-hooks.ts';
import { clearAppendMarkers, markAppend, unfinishedAppend } from './unfinished-append.ts';
import { writeFailure, writeFullySync } from './write-fully.ts';

/**
 * Appends lines (already serialised, without newlines) in one write, then flushes. The caller
 * holds the conversation's lock and has stored the blobs the lines refer to. What an append killed
 * midway wrote is cut off first (unfinished-append.ts), and so is an incomplete last line from an
 * earlier crash, so a new event never continues a torn one; a last line that is complete JSON and
 * lacks only its newline (a hand edit) is kept and ended. A failed write (a full disk) is undone:
 * the file keeps the lines it had.
 */
export function appendLines(file: string, lines: readonly string[], point?: string): void {
  if (lines.length === 0) return;
  let fd: number;
  try {
    fd = openSync(file, 'a+');
  } catch (error) {
    throw writeFailure(error, file);
  }
  try {
    // A marker left behind is a dead writer's (the caller holds the lock): its lines go.
    const unfinished = unfinishedAppend(file);
    if (unfinished !== undefined) {
      if (unfinished < fstatSync(fd).size) ftruncateSync(fd, unfinished);
      clearAppendMarkers(file);
    }
    const size = fstatSync(fd).size;
    const tail = unendedTail(fd, size);
    const kept = tail === undefined || tail.complete ? size : tail.start;
    if (kept < size) ftruncateSync(fd, kept);
    const payload = Buffer.from(`${tail?.complete ? '\n' : ''}${lines.map((line) => `${line}\n`).join('')}`, 'utf8');
    let marker: string | undefined;
    try {
      marker = markAppend(file, kept);
      if (point !== undefined) {
        enospcPoint(point, file);
        tornWritePoint(point, payload, (part) => writeFullySync(fd, part));
      }
      writeFullySync(fd, payload);
      fsyncSync(fd);
      rmSync(marker);
      marker = undefined;
      if (point !== undefined) crashPoint(point);
    } catch (error) {
      undo(fd, kept);
      if (marker !== undefined) rmSync(marker, { force: true });
      throw writeFailure(error, file);
    }
  } finally {
    closeSync(fd);
  }
}

/** Cuts what a failed append wrote. Should that fail too, the next append cuts the torn line it left. */
function undo(fd: number, size: number): void {
  try {
    ftruncateSync(fd, size);
    fsyncSync(fd);
  } catch {
    // The error of the append is the one to report.
  }
}

/** The last line when it has no newline: where it starts, and whether it is complete JSON. */
function unendedTail(fd: number, size: number): { start: number; complete: boolean } | undefined {
  if (size === 0) return undefined;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return undefined;
  const start = lastLineStart(fd, size);
  const text = Buffer.alloc(size - start);
  readSync(fd, text, 0, text.byteLength, start);
  try {
    JSON.parse(text.toString('utf8'));
    return { start, complete: true };
  } catch {
    return { start, complete: false };
  }
}

/** Where the last line starts: after the last newline, scanning backwards. */
function lastLineStart(fd: number, size: number): number {
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.byteLength);
    const read = readSync(fd, chunk, 0, end - start, start);
    const newline = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
}
