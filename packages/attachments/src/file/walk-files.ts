import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import type { HandlerLogger } from '../handler.ts';
import type { FileToRead } from './read-file-resource.ts';
import { fsAttachmentError, isMissing } from './fs-error.ts';
import { readGitExcludes } from './git-excludes.ts';
import { enterDirectory, isIgnored, outerGitignores, readGitignore, type GitignoreLevel, type GitignoreScope } from './gitignore-rules.ts';
import { listDirectory, type DirectoryEntry } from './list-directory.ts';
import { sortByUtf8Path } from './utf8-order.ts';
import { describeBytes, REPLACEMENT } from './utf8-path.ts';
import { fileUri, resourceName, workspaceRelative } from './workspace-path.ts';

/** Directories never walked into, whatever the rules say. */
const ALWAYS_SKIPPED = new Set(['.git', '.jp']);

/** `.`, which starts a hidden name. */
const DOT = 0x2e;

/**
 * How many entries (each directory counting as one more) a walk lists between calls to
 * `options.pace`: the pacer yields only once its slice has passed, so a call per directory would
 * cost more than it gives, and this many entries never hold the loop much past a slice.
 */
const PACE_EVERY_ENTRIES = 128;

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
  /** Called every few hundred entries to let the event loop run (see `createEventLoopPacer`). */
  pace?: () => Promise<void>;
  /**
   * Given, after each directory, the files the walk found in it, and at the end the files it
   * reaches only through symlinks: every file it returns, once, in the order found (a reader may
   * start on them before the walk is done).
   */
  found?: (files: readonly WalkedFile[]) => void;
}

export interface WalkedFile {
  realPath: string;
  /** Workspace-relative POSIX path of `realPath`. */
  relative: string;
}

/** A real directory path with a separator after it, ready for entry names to be appended. */
function withSeparator(directory: string): string {
  return directory.endsWith(path.sep) ? directory : `${directory}${path.sep}`;
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
 * `.jp/` never entered, `.gitignore` files honoured at every level from the workspace root down,
 * below them the repository's `info/exclude` and git's global excludes file (`readGitExcludes`).
 * Symlinks to files count as their targets when those are inside the workspace, and are skipped
 * with a warning when they lead outside (naming such a link attaches it as `external:`); symlinks
 * to directories are not followed; FIFOs, sockets and devices are left out; a name that is not
 * valid UTF-8 is skipped with a warning. Sorted by the byte order of the workspace-relative
 * path, without duplicates. File-system calls are synchronous, paced by `options.pace`.
 */
export async function walkFiles(options: WalkOptions): Promise<WalkedFile[]> {
  const { workspaceRoot, input, logger, match } = options;
  const descendHidden = options.descendHidden === true;
  const startRelative = workspaceRelative(workspaceRoot, options.start) ?? '';
  // Regular files, each met once: a directory is entered once and directory links are not followed.
  const files: WalkedFile[] = [];
  // Targets of symlinks to files, by real path: they may repeat each other or a regular file.
  const linked = new Map<string, WalkedFile>();
  // Entries listed since the last call to `pace`; the first directory calls it at once.
  let unpaced = PACE_EVERY_ENTRIES;
  const shown = (relative: string, entry: DirectoryEntry): string => {
    const name = entry.nonUtf8Name === undefined ? entry.name : describeBytes(entry.nonUtf8Name);
    return `${relative === '' ? '' : `${relative}/`}${name}${entry.isDirectory() ? '/' : ''}`;
  };

  /** Files already given to `options.found`. */
  let reported = 0;
  const report = (): void => {
    if (files.length === reported) return;
    options.found?.(files.slice(reported));
    reported = files.length;
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
    if (!linked.has(target.realPath)) linked.set(target.realPath, { realPath: target.realPath, relative: targetRelative });
  };

  const visit = async (directory: string, relative: string, outer: GitignoreScope): Promise<void> => {
    if (unpaced >= PACE_EVERY_ENTRIES) {
      unpaced = 0;
      await options.pace?.();
    }
    let entries: readonly DirectoryEntry[];
    try {
      entries = listDirectory(directory);
    } catch (error) {
      // A glob's literal part may name a directory that does not exist: it then matches nothing.
      if (relative === startRelative && isMissing(error)) return;
      throw fsAttachmentError(input, relative === startRelative ? input : `${relative}/ (from ${input})`, error);
    }
    unpaced += entries.length + 1;
    let own: GitignoreLevel | undefined;
    for (const entry of entries) {
      if (entry.name === '.gitignore' && !entry.isDirectory()) {
        own = readGitignore(directory, relative);
        break;
      }
    }
    const scope = enterDirectory(outer, relative, own);
    const directoryPrefix = withSeparator(directory);
    const relativePrefix = relative === '' ? '' : `${relative}/`;
    for (const entry of entries) {
      const name = entry.name;
      const hidden = name.charCodeAt(0) === DOT;
      const file = entry.isFile();
      if (file || entry.isSymbolicLink()) {
        if (hidden && match === undefined) continue;
        const entryRelative = relativePrefix + name;
        if (isIgnored(scope, entryRelative, false)) continue;
        if (match !== undefined && !match(entryRelative)) continue;
        if (entry.nonUtf8Name !== undefined) {
          logger.warn(`${input}: skipped ${shown(relative, entry)}, its name is not valid UTF-8; rename it to attach it`);
          continue;
        }
        if (file) files.push({ realPath: directoryPrefix + name, relative: entryRelative });
        else addSymlink(directoryPrefix + name, entryRelative);
      } else if (entry.isDirectory()) {
        if (hidden && (!descendHidden || ALWAYS_SKIPPED.has(name))) continue;
        const entryRelative = relativePrefix + name;
        if (isIgnored(scope, entryRelative, true)) continue;
        if (entry.nonUtf8Name !== undefined) {
          logger.warn(`${input}: skipped ${shown(relative, entry)}, its name is not valid UTF-8; rename it to attach what it holds`);
          continue;
        }
        await visit(directoryPrefix + name, entryRelative, scope);
      }
      // Anything else (a FIFO, a socket, a device) is left out.
    }
    report();
  };

  // Where git keeps its files is read from this process's environment (HOME, XDG_CONFIG_HOME, GIT_CONFIG_*).
  const excludes = readGitExcludes(workspaceRoot, process.env);
  await visit(options.start, startRelative, outerGitignores(workspaceRoot, startRelative, excludes));
  if (linked.size > 0) {
    const regular = new Set(files.map((file) => file.realPath));
    for (const [realPath, file] of linked) if (!regular.has(realPath)) files.push(file);
    report();
  }
  return sortByUtf8Path(files);
}

/** The file a walked file becomes, under its declaration. */
function walkedFileToRead(file: WalkedFile, declaration: string): FileToRead {
  return {
    realPath: file.realPath,
    uri: fileUri(file.realPath),
    name: resourceName(file.relative),
    input: declaration,
    label: `${file.relative} (from ${declaration})`,
  };
}

/**
 * For a walk whose files are read as it finds them: `found` (its `WalkOptions.found`) hands each
 * batch to `feed` as files to read under `declaration`, and `readOf` gives, once the walk is
 * over, the very file fed for each file it returns (a reading knows its files by identity).
 */
export function feedingWalk(declaration: string, feed: (files: readonly FileToRead[]) => void): {
  found: (files: readonly WalkedFile[]) => void;
  readOf: (file: WalkedFile) => FileToRead;
} {
  const fed = new Map<WalkedFile, FileToRead>();
  return {
    found(files) {
      feed(
        files.map((file) => {
          const read = walkedFileToRead(file, declaration);
          fed.set(file, read);
          return read;
        }),
      );
    },
    readOf: (file) => fed.get(file) ?? walkedFileToRead(file, declaration),
  };
}
