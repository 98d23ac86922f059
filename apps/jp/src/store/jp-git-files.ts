import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where machine-local state lives: never committed, never merged (RFD 029). */
export const LOCAL_DIR = 'local';

/**
 * `.jp/.gitignore`: the machine-local directory, and the names an earlier jp (or a killed one)
 * can still leave beside the shared files: the active pointer, temporary and doomed directories,
 * locks, spools and caches.
 */
export const JP_GITIGNORE = [
  '# Machine-local jp state: never shared (RFD 029).',
  `/${LOCAL_DIR}/`,
  '/active',
  '/cache/',
  '/blobs.lock',
  '/conversations/*/lock',
  '*.tmp',
  '.new-*',
  '.rm-*',
  '',
].join('\n');

/**
 * `.jp/.gitattributes`: git's built-in union driver (no per-clone configuration) concatenates the
 * lines two sides appended to one conversation instead of stopping on a conflict.
 */
export const JP_GITATTRIBUTES = ['# Appends from two clones are both kept (RFD 029).', 'conversations/*/events.jsonl merge=union', ''].join('\n');

/**
 * Writes `.jp/.gitignore` and `.jp/.gitattributes` when missing; an existing file is left as the
 * team committed it. Best effort: a read-only workspace still reads, and says nothing here.
 * Returns the names written.
 */
export function ensureJpGitFiles(jpDir: string): string[] {
  const written: string[] = [];
  for (const [name, text] of [
    ['.gitignore', JP_GITIGNORE],
    ['.gitattributes', JP_GITATTRIBUTES],
  ] as const) {
    const file = path.join(jpDir, name);
    if (existsSync(file)) continue;
    try {
      // `wx`: two jp processes racing here write it once, and neither replaces the other's.
      writeFileSync(file, text, { flag: 'wx' });
      written.push(name);
    } catch {
      // EEXIST (the other writer won), EROFS, EACCES: nothing to do.
    }
  }
  return written;
}
