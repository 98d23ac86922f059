import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { HandlerLogger } from '../handler.ts';
import { fsAttachmentError, isMissing } from './fs-error.ts';
import { isIgnored, outerGitignores, readGitignore, type GitignoreLevel } from './gitignore-rules.ts';
import { compareBytes, workspaceRelative } from './workspace-path.ts';

/** Directories never walked into, whatever the rules say. */
const ALWAYS_SKIPPED = new Set(['.git', '.jp']);

export interface WalkOptions {
  workspaceRoot: string;
  /** Real path of the directory the walk starts in (inside the workspace). */
  start: string;
  /** The declaration being expanded, for errors and warnings. */
  input: string;
  logger: HandlerLogger;
  /**
   * For a glob: whether a workspace-relative path matches. Hidden files are then the matcher's
   * call (a pattern naming `.github/` reaches them); without one, every hidden name is skipped.
   */
  match?: (relative: string) => boolean;
  /** For a glob: walk into hidden directories too (its pattern names a dot segment). */
  descendHidden?: boolean;
}

export interface WalkedFile {
  realPath: string;
  /** Workspace-relative POSIX path of `realPath`. */
  relative: string;
}

/**
 * The regular files under a directory that survive the rules: hidden names skipped, `.git/` and
 * `.jp/` never entered, `.gitignore` files honoured at every level from the workspace root down.
 * Symlinks to files count as their targets (when those are inside the workspace); symlinks to
 * directories are not followed; FIFOs, sockets and devices are left out. Sorted by the byte order
 * of the workspace-relative path, without duplicates.
 */
export async function walkFiles(options: WalkOptions): Promise<WalkedFile[]> {
  const { workspaceRoot, input, logger, match } = options;
  const startRelative = workspaceRelative(workspaceRoot, options.start) ?? '';
  const found = new Map<string, WalkedFile>();

  const keepFile = (levels: readonly GitignoreLevel[], relative: string, name: string): boolean => {
    if (match === undefined && name.startsWith('.')) return false;
    if (isIgnored(levels, relative, false)) return false;
    return match === undefined || match(relative);
  };

  const addSymlink = async (linkPath: string, relative: string): Promise<void> => {
    let realPath: string;
    try {
      realPath = await fs.realpath(linkPath);
      if (!(await fs.stat(realPath)).isFile()) return;
    } catch {
      logger.warn(`${input}: skipped ${relative}, a broken symbolic link`);
      return;
    }
    const target = workspaceRelative(workspaceRoot, realPath);
    if (target === undefined) {
      logger.warn(`${input}: skipped ${relative}, a symbolic link to a file outside the workspace`);
      return;
    }
    if (!found.has(realPath)) found.set(realPath, { realPath, relative: target });
  };

  const visit = async (directory: string, relative: string, outer: readonly GitignoreLevel[]): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(directory, { withFileTypes: true });
    } catch (error) {
      // A glob's literal part may name a directory that does not exist: it then matches nothing.
      if (relative === startRelative && isMissing(error)) return;
      throw fsAttachmentError(input, relative === startRelative ? input : `${relative}/ (from ${input})`, error);
    }
    const own = await readGitignore(directory, relative);
    const levels = own === undefined ? outer : [...outer, own];
    for (const entry of entries) {
      const name = entry.name;
      const entryPath = path.join(directory, name);
      const entryRelative = relative === '' ? name : `${relative}/${name}`;
      if (entry.isDirectory()) {
        if (ALWAYS_SKIPPED.has(name)) continue;
        if (name.startsWith('.') && options.descendHidden !== true) continue;
        if (isIgnored(levels, entryRelative, true)) continue;
        await visit(entryPath, entryRelative, levels);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (!keepFile(levels, entryRelative, name)) continue;
        if (entry.isSymbolicLink()) await addSymlink(entryPath, entryRelative);
        else if (!found.has(entryPath)) found.set(entryPath, { realPath: entryPath, relative: entryRelative });
      }
    }
  };

  await visit(options.start, startRelative, await outerGitignores(workspaceRoot, startRelative));
  return [...found.values()].sort((a, b) => compareBytes(a.relative, b.relative));
}
