import { mkdir, open, rmdir } from 'node:fs/promises';
import path from 'node:path';

/*
 * Directories made for durable writes (blob-store.ts): made, flushed, and taken back when the
 * write they were made for failed, so a full disk leaves `.jp/` as it was (issue 35).
 */

/** Makes the directories; returns the parents whose entries changed (to be flushed too), and adds the topmost new ones to `made`. */
export async function makeDirectories(dirs: Iterable<string>, made: string[]): Promise<Set<string>> {
  const parents = new Set<string>();
  for (const dir of dirs) {
    const top = await mkdir(dir, { recursive: true });
    if (top !== undefined) {
      made.push(top);
      parents.add(path.dirname(top)).add(path.dirname(dir));
    }
  }
  return parents;
}

/** Removes each of `dirs` and its ancestors up to a directory in `made`, as long as they are empty and this call made them. */
export async function removeEmptyDirectories(dirs: Iterable<string>, made: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    const top = made.find((root) => dir === root || dir.startsWith(`${root}${path.sep}`));
    if (top === undefined) continue;
    for (let current = dir; ; current = path.dirname(current)) {
      try {
        await rmdir(current);
      } catch {
        break; // not empty (another blob of this call landed there), or gone already
      }
      if (current === top) break;
    }
  }
}

/** Flushes a directory's entries (a rename or a new file in it) to the disk. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
