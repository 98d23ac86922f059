import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import type { HandlerLogger } from '../handler.ts';
import { fsAttachmentError, isMissing } from './fs-error.ts';
import { isIgnored, outerGitignores, readGitignore, type GitignoreLevel } from './gitignore-rules.ts';
import { listDirectory, type DirectoryEntry } from './list-directory.ts';
import { describeBytes, REPLACEMENT } from './utf8-path.ts';
import { workspaceRelative } from './workspace-path.ts';

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
  /** Called between directories to let the event loop run (see `createEventLoopPacer`). */
  pace?: () => Promise<void>;
}

export interface WalkedFile {
  realPath: string;
  /** Workspace-relative POSIX path of `realPath`. */
  relative: string;
}

/** `path.join` for a real directory path and an entry name, without normalising what is normal already. */
function childPath(directory: string, name: string): string {
  return directory.endsWith(path.sep) ? `${directory}${name}` : `${directory}${path.sep}${name}`;
}

/** The real path of a symlink's target when it is a regular file, or why it is skipped. */
function symlinkTarget(linkPath: string): { realPath: string } | { skip: string } {
  let realPath: string;
  try {
    realPath = fs.realpathSync.native(linkPath);
    if (realPath.includes(REPLACEMENT) && !isUtf8(fs.realpathSync.native(linkPath, { encoding: 'buffer' }))) {
      return { skip: 'a symbolic link to a path that is not valid UTF-8' };
    }
    // A link to a directory is not followed, silently, as in git.
    return fs.statSync(realPath).isFile() ? { realPath } : { skip: '' };
  } catch {
    return { skip: 'a broken symbolic link' };
  }
}

/**
 * The regular files under a directory that survive the rules: hidden names skipped, `.git/` and
 * `.jp/` never entered, `.gitignore` files honoured at every level from the workspace root down.
 * Symlinks to files count as their targets when those are inside the workspace, and are skipped
 * with a warning when they lead outside (naming such a link attaches it as `external:`); symlinks
 * to directories are not followed; FIFOs, sockets and devices are left out; a name that is not
 * valid UTF-8 is skipped with a warning. Sorted by the byte order of the workspace-relative
 * path, without duplicates. File-system calls are synchronous, paced by `options.pace`.
 */
export async function walkFiles(options: WalkOptions): Promise<WalkedFile[]> {
  const { workspaceRoot, input, logger, match } = options;
  const startRelative = workspaceRelative(workspaceRoot, options.start) ?? '';
  const found = new Map<string, WalkedFile>();
  const shown = (relative: string, entry: DirectoryEntry): string => {
    const name = entry.nonUtf8Name === undefined ? entry.name : describeBytes(entry.nonUtf8Name);
    return `${relative === '' ? '' : `${relative}/`}${name}${entry.kind === 'directory' ? '/' : ''}`;
  };

  const keepFile = (levels: readonly GitignoreLevel[], relative: string, name: string): boolean => {
    if (match === undefined && name.startsWith('.')) return false;
    if (isIgnored(levels, relative, false)) return false;
    return match === undefined || match(relative);
  };

  const addSymlink = (linkPath: string, relative: string): void => {
    const target = symlinkTarget(linkPath);
    if ('skip' in target) {
      if (target.skip !== '') logger.warn(`${input}: skipped ${relative}, ${target.skip}`);
      return;
    }
    const targetRelative = workspaceRelative(workspaceRoot, target.realPath);
    if (targetRelative === undefined) {
      logger.warn(`${input}: skipped ${relative}, a symbolic link to a file outside the workspace (attach the link by name to send a snapshot of it)`);
      return;
    }
    if (!found.has(target.realPath)) found.set(target.realPath, { realPath: target.realPath, relative: targetRelative });
  };

  const visit = async (directory: string, relative: string, outer: readonly GitignoreLevel[]): Promise<void> => {
    await options.pace?.();
    let entries: DirectoryEntry[];
    try {
      entries = listDirectory(directory);
    } catch (error) {
      // A glob's literal part may name a directory that does not exist: it then matches nothing.
      if (relative === startRelative && isMissing(error)) return;
      throw fsAttachmentError(input, relative === startRelative ? input : `${relative}/ (from ${input})`, error);
    }
    const hasGitignore = entries.some((entry) => entry.name === '.gitignore' && entry.kind !== 'directory');
    const own = hasGitignore ? readGitignore(directory, relative) : undefined;
    const levels = own === undefined ? outer : [...outer, own];
    for (const entry of entries) {
      const name = entry.name;
      const entryRelative = relative === '' ? name : `${relative}/${name}`;
      if (entry.kind === 'directory') {
        if (ALWAYS_SKIPPED.has(name)) continue;
        if (name.startsWith('.') && options.descendHidden !== true) continue;
        if (isIgnored(levels, entryRelative, true)) continue;
        if (entry.nonUtf8Name !== undefined) {
          logger.warn(`${input}: skipped ${shown(relative, entry)}, its name is not valid UTF-8; rename it to attach what it holds`);
          continue;
        }
        await visit(childPath(directory, name), entryRelative, levels);
      } else if (entry.kind === 'file' || entry.kind === 'symlink') {
        if (!keepFile(levels, entryRelative, name)) continue;
        if (entry.nonUtf8Name !== undefined) {
          logger.warn(`${input}: skipped ${shown(relative, entry)}, its name is not valid UTF-8; rename it to attach it`);
          continue;
        }
        const entryPath = childPath(directory, name);
        if (entry.kind === 'symlink') addSymlink(entryPath, entryRelative);
        else if (!found.has(entryPath)) found.set(entryPath, { realPath: entryPath, relative: entryRelative });
      }
    }
  };

  await visit(options.start, startRelative, outerGitignores(workspaceRoot, startRelative));
  const keyed = [...found.values()].map((file) => ({ file, key: Buffer.from(file.relative, 'utf8') }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  return keyed.map(({ file }) => file);
}
