import { closeSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureJpGitFiles, LOCAL_DIR } from './jp-git-files.ts';
import { crashPoint } from './test-hooks.ts';

/*
 * Workspaces made before RFD 029 kept two pieces of one machine's state beside the shared files:
 * the active pointer `.jp/active` and the file cache `.jp/cache/`. The first jp that finds them
 * moves each under `.jp/local/` with one rename, so a kill at any point leaves every piece in its
 * old place or its new one, and readers look in both (the active pointer) or treat a missing cache
 * as empty. Locks are not moved: a lock works only if every running jp uses the same path (RFD 029).
 */

const PIECES = [
  { name: 'active', shown: '.jp/active' },
  { name: 'cache', shown: '.jp/cache/' },
] as const;

function mtimeOf(file: string): number | undefined {
  return lstatSync(file, { throwIfNoEntry: false })?.mtimeMs;
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // A file system that cannot flush a directory: the renames are still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Moves what is left of this machine's state in the old places; returns what was moved, for the
 * one note that says so (`[]` almost always: two `lstat`s). Best effort: in a read-only workspace
 * nothing moves and the old places are still read.
 */
export function moveLocalState(jpDir: string): string[] {
  const found = PIECES.filter((piece) => mtimeOf(path.join(jpDir, piece.name)) !== undefined);
  if (found.length === 0) return [];
  const local = path.join(jpDir, LOCAL_DIR);
  const moved: string[] = [];
  // First, so that git never sees `local/`, whenever this run is stopped.
  ensureJpGitFiles(jpDir);
  try {
    mkdirSync(local, { recursive: true });
    crashPoint('migration:local');
    for (const piece of found) {
      const from = path.join(jpDir, piece.name);
      const to = path.join(local, piece.name);
      const there = mtimeOf(to);
      if (there === undefined) {
        renameSync(from, to);
      } else if (piece.name === 'active' && (mtimeOf(from) ?? 0) > there) {
        // An older jp chose a conversation after the move: the newer choice wins (one machine, one clock).
        renameSync(from, to);
      } else {
        // The new place has it already: the old copy was left by a run killed before removing it, or by an older jp.
        rmSync(from, { recursive: true, force: true });
      }
      crashPoint(`migration:${piece.name}`);
      moved.push(piece.shown);
    }
  } catch {
    // EROFS, EACCES: the readers still find what stayed behind.
  }
  if (moved.length > 0) {
    syncDirectory(local);
    syncDirectory(jpDir);
  }
  return moved;
}
