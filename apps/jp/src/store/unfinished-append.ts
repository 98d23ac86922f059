import { closeSync, openSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/*
 * An append of several lines is one write, but a write longer than a page is not all or nothing:
 * a process killed in the middle leaves its first pages, which may end in whole lines (issue 45:
 * a turn's request without its answer). So an append first leaves an empty marker beside the file,
 * `.<file>.append-<length before>.tmp`, and removes it once the lines are flushed: while a marker
 * is there, the bytes after that length are not part of the file. Readers stop there; the next
 * append (under the lock, so its writer is dead) cuts them off. The marker is empty, so a full
 * disk can still take it, and its name matches no temporary file `jp gc` removes.
 */

const MARKER = /^\.(.+)\.append-(\d+)\.tmp$/;

/** The length `file` had before an append that has not finished, if one has not. */
export function unfinishedAppend(file: string): number | undefined {
  let names: string[];
  try {
    names = readdirSync(path.dirname(file));
  } catch {
    return undefined;
  }
  const base = path.basename(file);
  let start: number | undefined;
  for (const name of names) {
    const match = MARKER.exec(name);
    if (match?.[1] !== base) continue;
    const length = Number(match[2]);
    if (start === undefined || length < start) start = length;
  }
  return start;
}

/** Marks an append to `file` beginning at `length`; returns the marker's path, to remove once the lines are flushed. */
export function markAppend(file: string, length: number): string {
  const marker = path.join(path.dirname(file), `.${path.basename(file)}.append-${length}.tmp`);
  closeSync(openSync(marker, 'w'));
  return marker;
}

/** Removes every marker of `file` (the caller has cut the file back, or finished its append). */
export function clearAppendMarkers(file: string): void {
  let names: string[];
  try {
    names = readdirSync(path.dirname(file));
  } catch {
    return;
  }
  const base = path.basename(file);
  for (const name of names) if (MARKER.exec(name)?.[1] === base) rmSync(path.join(path.dirname(file), name), { force: true });
}
