import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic-write.ts';

/**
 * What `.jp/.gitignore` keeps out of git: one person's and one machine's state. `.jp/` may be
 * committed so a team shares its conversations (RFD 029); drafts, generated pages and temporary
 * files are nobody else's.
 */
export const JP_GITIGNORE = [
  '# Written by jp: what is one machine\'s, never shared.',
  '/local/',
  '*.tmp',
  '',
].join('\n');

/** `.jp/.gitignore` as jp writes it, when it is missing (a file the user changed is left alone). */
export function ensureJpGitignore(jpDir: string): void {
  const file = path.join(jpDir, '.gitignore');
  try {
    readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return;
    writeFileAtomic(file, JP_GITIGNORE);
  }
}

/** A directory under `.jp/local/`, made when missing, with `.jp/.gitignore` in place first. */
export function localDir(jpDir: string, ...names: string[]): string {
  ensureJpGitignore(jpDir);
  const dir = path.join(jpDir, 'local', ...names);
  mkdirSync(dir, { recursive: true });
  return dir;
}
