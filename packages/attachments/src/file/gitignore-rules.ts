import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The rules of one `.gitignore` and the workspace-relative directory they belong to (`''` for the root). */
export interface GitignoreLevel {
  directory: string;
  rules: Ignore;
}

/**
 * Reads `<realDirectory>/.gitignore` (synchronously: it is small, and a walk reads one per
 * directory that has one); `undefined` when there is none (or it cannot be read).
 */
export function readGitignore(realDirectory: string, directory: string): GitignoreLevel | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(realDirectory, '.gitignore'), 'utf8');
  } catch {
    // None, or one that is a directory or unreadable: no rules here, as for git.
    return undefined;
  }
  return { directory, rules: ignore().add(text) };
}

/**
 * Whether a workspace-relative path is ignored under the levels in force (outermost first). As in
 * git, the deepest `.gitignore` with a rule about the path decides, and the last rule in it wins,
 * so a nested `!keep.log` re-includes what an outer `*.log` left out.
 */
export function isIgnored(levels: readonly GitignoreLevel[], relative: string, isDirectory: boolean): boolean {
  for (let index = levels.length - 1; index >= 0; index--) {
    const level = levels[index]!;
    const inside = level.directory === '' ? relative : relative.slice(level.directory.length + 1);
    const result = level.rules.test(isDirectory ? `${inside}/` : inside);
    if (result.unignored) return false;
    if (result.ignored) return true;
  }
  return false;
}

/**
 * The levels above a directory a walk starts in: every `.gitignore` from the workspace root down
 * to its parent, except those that would ignore the directory itself — naming a directory
 * explicitly attaches it even when an outer `.gitignore` leaves it out.
 */
export function outerGitignores(workspaceRoot: string, start: string): GitignoreLevel[] {
  if (start === '') return [];
  const segments = start.split('/');
  const levels: GitignoreLevel[] = [];
  for (let depth = 0; depth < segments.length; depth++) {
    const directory = segments.slice(0, depth).join('/');
    const level = readGitignore(path.join(workspaceRoot, ...segments.slice(0, depth)), directory);
    if (level !== undefined) levels.push(level);
  }
  return levels.filter((level) => !isIgnored([level], start, true));
}
