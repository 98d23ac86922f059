import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { JpError } from '@jp/core';
import { writeFileAtomic } from '../store/atomic-write.ts';

/** The line `jp init --gitignore` adds. */
export const JP_GITIGNORE_LINE = '.jp/';

/** Lines that ignore the workspace's `.jp` directory as the added line does (trailing spaces are not significant in git). */
const EQUIVALENT = new Set(['.jp', '.jp/', '/.jp', '/.jp/', '.jp/*', '/.jp/*', '.jp/**', '/.jp/**']);

/**
 * A `.gitignore`'s text with `.jp/` added at the end, or `undefined` when a line already ignores
 * `.jp` the same way. The file's own line ending is used, and its final newline kept as it was:
 * a file that ended without one still does.
 */
export function withJpIgnored(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  if (lines.some((line) => EQUIVALENT.has(line.replace(/[ \t]+$/, '')))) return undefined;
  if (text === '') return `${JP_GITIGNORE_LINE}\n`;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return text.endsWith('\n') ? `${text}${JP_GITIGNORE_LINE}${eol}` : `${text}${eol}${JP_GITIGNORE_LINE}`;
}

/** Whether the workspace's `.gitignore` has a line that ignores `.jp/` (false when there is none). */
export function jpIgnoredInGit(root: string): boolean {
  const text = readGitignore(path.join(root, '.gitignore'));
  return text !== undefined && withJpIgnored(text) === undefined;
}

function readGitignore(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw gitignoreError(error);
  }
}

function gitignoreError(error: unknown): JpError {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' || code === 'EPERM' ? `permission denied (${code})` : `${(error as Error).message}`;
  return new JpError(`cannot add .jp/ to .gitignore: ${why}; add the line yourself, or run jp init --no-gitignore`, { code: 'gitignore_failed', cause: error });
}

/**
 * Adds `.jp/` to `<root>/.gitignore`, creating the file when missing. The file is replaced
 * atomically (a symlink stays a link: its target is written) and keeps its permissions. Returns
 * whether a line was added: false when one already ignored `.jp/`.
 */
export function addJpToGitignore(root: string): boolean {
  const file = path.join(root, '.gitignore');
  const text = readGitignore(file);
  const next = withJpIgnored(text ?? '');
  if (next === undefined) return false;
  try {
    if (text === undefined) writeFileAtomic(file, next);
    else writeFileAtomic(realpathSync(file), next, { mode: statSync(file).mode & 0o7777 });
  } catch (error) {
    throw error instanceof JpError ? error : gitignoreError(error);
  }
  return true;
}
