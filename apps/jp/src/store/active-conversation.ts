import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { LOCAL_DIR } from './jp-git-files.ts';

/**
 * The active conversation is a choice of this machine, not of the team: it lives in
 * `.jp/local/active`. `.jp/active`, where an earlier jp kept it, is still read when the new one
 * is missing, and removed once the new one is written.
 */
export function activeFile(jpDir: string): string {
  return path.join(jpDir, LOCAL_DIR, 'active');
}

const LEGACY = 'active';

export function readActiveId(jpDir: string): string | undefined {
  for (const file of [activeFile(jpDir), path.join(jpDir, LEGACY)]) {
    try {
      const id = readFileSync(file, 'utf8').trim();
      if (id !== '') return id;
    } catch {
      // Missing or unreadable: try the next place.
    }
  }
  return undefined;
}

export function writeActiveId(jpDir: string, id: string): void {
  mkdirSync(path.join(jpDir, LOCAL_DIR), { recursive: true });
  writeFileAtomic(activeFile(jpDir), `${id}\n`);
  rmSync(path.join(jpDir, LEGACY), { force: true });
}

/** No conversation is active on this machine any more (the active one was removed). */
export function clearActiveId(jpDir: string): void {
  rmSync(activeFile(jpDir), { force: true });
  rmSync(path.join(jpDir, LEGACY), { force: true });
}
