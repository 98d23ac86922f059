import type { Resource } from '@jp/core';
import { DEFAULT_LIMITS, type ContentSpool, type FileContentCache, type HandlerContext } from '../handler.ts';
import { createEventLoopPacer } from './event-loop-pacer.ts';
import { declarationOf, locateFileTarget } from './file-target.ts';
import type { FileToRead } from './read-file-resource.ts';
import { startFileReading, type ReadFilesOptions } from './read-file-resources.ts';
import { feedingWalk, walkFiles, type WalkedFile } from './walk-files.ts';

/*
 * A directory attachment walked and read before the command knows its configuration (RFD 002,
 * "Starting early"). The binary starts it from the command line alone, while the command's
 * modules load and its configuration is read — a time when the reader thread has nothing to do —
 * and the file handler takes it over when it resolves the same directory: the walk's result is
 * the same whenever it is taken (it depends on the files and their .gitignore rules only), and
 * the command's limits, size policy, logger and abort signal apply to the resources made from it
 * (`FileReading.finish`). A tree nobody takes is ended with the process.
 */

/** Files read ahead at most before the command's own limit is known: past them, reading waits for it. */
export const EARLY_READ_AHEAD_FILES = 20_000;

/** What an early tree is begun with; the command must use the same cache and spool to take it. */
export interface EarlyTreeStart {
  workspaceRoot: string;
  /** Real path of the directory, inside the workspace. */
  realPath: string;
  /** The declaration it will be resolved under (`declarationOf`): its files' errors name it. */
  declaration: string;
  fileContents?: FileContentCache | undefined;
  spool?: ContentSpool | undefined;
}

/** An early tree, as the file handler takes it over. */
export interface EarlyTree {
  /** The walk's files, sorted; rejected as the walk failed (the handler then walks again, and reports). */
  walked: Promise<WalkedFile[]>;
  /** The file to read for each file walked. */
  readOf(file: WalkedFile): FileToRead;
  /** The resources, made under the command's context and options (see `FileReading.finish`). */
  finish(order: readonly FileToRead[], ctx: HandlerContext, options: ReadFilesOptions): Promise<Resource[]>;
  close(): void;
}

interface Started extends EarlyTreeStart {
  tree: EarlyTree;
  /** Hands the tree over: the command's limits, logger, progress and abort signal apply from now on. */
  took: (ctx: HandlerContext, options: ReadFilesOptions) => void;
}

let started: Started | undefined;

/**
 * The directory an `--attach` input names, and the declaration it will be resolved under, as the
 * file handler will see them; `undefined` for anything else (a file, a glob, a URL, nothing).
 */
export async function earlyDirectory(input: string, workspaceRoot: string, cwd: string): Promise<{ realPath: string; declaration: string } | undefined> {
  try {
    const target = await locateFileTarget(input, { workspaceRoot, cwd });
    return target.kind === 'directory' ? { realPath: target.realPath, declaration: declarationOf(target) } : undefined;
  } catch {
    return undefined; // the command says what is wrong
  }
}

/**
 * Begins walking a directory and reading its files (a reader thread started ahead takes them),
 * under default limits but for the number of files (`EARLY_READ_AHEAD_FILES`). One at a time: a
 * second call ends the first tree. Returns when the walk is over, whether it failed or not.
 */
export function startEarlyTree(start: EarlyTreeStart): Promise<void> {
  started?.tree.close();
  const warnings: string[] = [];
  let logger: HandlerContext['logger'] | undefined;
  let progress: ReadFilesOptions['onFile'];
  const ctx: HandlerContext = {
    workspaceRoot: start.workspaceRoot,
    cwd: start.workspaceRoot,
    limits: { ...DEFAULT_LIMITS, maxFiles: EARLY_READ_AHEAD_FILES },
    logger: { warn: (message) => (logger === undefined ? warnings.push(message) : logger.warn(message)) },
    fileContents: start.fileContents,
    spool: start.spool,
  };
  // The command's abort signal (Ctrl-C) stops the walk too, once the command has taken the tree.
  const interrupted = new AbortController();
  const pace = createEventLoopPacer(interrupted.signal);
  const reading = startFileReading(ctx, { pace, onFile: (file) => progress?.(file) });
  const { found, readOf } = feedingWalk(start.declaration, (files) => reading.feed(files));
  const walked = walkFiles({
    workspaceRoot: start.workspaceRoot,
    start: start.realPath,
    input: start.declaration,
    logger: ctx.logger,
    pace,
    found,
  });
  const self: Started = {
    ...start,
    took(command, options) {
      // From now on the command's limit on files decides how far reading goes ahead.
      ctx.limits = command.limits;
      logger = command.logger;
      if (command.signal?.aborted === true) interrupted.abort();
      else command.signal?.addEventListener('abort', () => interrupted.abort(), { once: true });
      progress = options.onFile;
      for (const message of warnings.splice(0)) logger.warn(message);
    },
    tree: {
      walked,
      readOf,
      finish: (order, command, options) => reading.finish(order, { ctx: command, options }),
      close: () => {
        reading.close();
        if (started === self) started = undefined;
      },
    },
  };
  started = self;
  return walked.then(
    () => undefined,
    () => undefined,
  );
}

/**
 * The early tree of this directory, if one was begun with the same workspace, declaration,
 * content cache and spool as `ctx` has; nobody else gets it. Its warnings so far go to
 * `ctx.logger`, as do later ones, and `options.onFile` hears of each file from now on.
 */
export function takeEarlyTree(realPath: string, declaration: string, ctx: HandlerContext, options: ReadFilesOptions): EarlyTree | undefined {
  const tree = started;
  if (
    tree === undefined ||
    tree.realPath !== realPath ||
    tree.declaration !== declaration ||
    tree.workspaceRoot !== ctx.workspaceRoot ||
    tree.fileContents !== ctx.fileContents ||
    tree.spool !== ctx.spool
  ) {
    return undefined;
  }
  started = undefined;
  tree.took(ctx, options);
  return tree.tree;
}

/** Ends an early tree nobody took (its reader thread; the app discards its spool). */
export function endEarlyTree(): void {
  started?.tree.close();
}
