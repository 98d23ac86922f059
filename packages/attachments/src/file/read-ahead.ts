import type { Resource } from '@jp/core';
import { DEFAULT_LIMITS, type ContentSpool, type FileContentCache, type HandlerContext } from '../handler.ts';
import { createEventLoopPacer } from './event-loop-pacer.ts';
import { declarationOf, locateFileTarget } from './file-target.ts';
import { startFileReading, type FileReading, type ReadFilesOptions } from './file-reading.ts';
import type { FileToRead } from './read-file-resource.ts';
import { feedingWalk, walkFiles, type WalkedFile } from './walk-files.ts';

/*
 * Reading a directory ahead: `jp query --attach DIR` begins to walk and read DIR as soon as its
 * arguments are parsed, while the command's modules load and its configuration is read — time in
 * which the reader thread would otherwise wait. The file handler takes the reading over when it
 * resolves the same directory. That is sound because a walk depends on the files and their
 * .gitignore rules only, and the command's own limits, size policy, logger and abort signal apply
 * to the resources made from it (`FileReading.finish`).
 */

/** Files read ahead at most before the command's own limit is known. */
const READ_AHEAD_FILES = 20_000;

/** What the CLI gives a read-ahead: where it runs, and the stores the command will use too. */
export interface ReadAheadHost {
  cwd: string;
  /** The workspace root the command will use (from `-w`, or found from `cwd`); `undefined` when there is none. */
  workspaceRoot(workspaceOption: string | undefined): string | undefined;
  /**
   * Where the reading spools content and what it knows of files already. The command must
   * resolve with these same stores (`HandlerContext.spool`, `.fileContents`): the spool records
   * what the read-ahead wrote.
   */
  stores(): { spool: ContentSpool; fileContents?: FileContentCache | undefined };
}

/** A directory being read ahead, as the file handler takes it over. */
export interface EarlyTree {
  /** The walk's files, sorted; rejected when the walk failed (the handler then walks again, and reports). */
  walked: Promise<WalkedFile[]>;
  /** The file fed to the reading for each file walked. */
  readOf(file: WalkedFile): FileToRead;
  /** The resources, made under the command's context and options. */
  finish(order: readonly FileToRead[], ctx: HandlerContext, options: ReadFilesOptions): Promise<Resource[]>;
  close(): void;
}

/** A read-ahead begun by the CLI: the file handler takes its tree (`HandlerContext.readAhead`). */
export interface ReadAhead {
  /**
   * The tree of this directory, under this declaration and workspace, once; `undefined` for any
   * other. From now on `ctx`'s limits, logger and abort signal apply, and `options.onFile` hears
   * of each file.
   */
  take(realPath: string, declaration: string, ctx: HandlerContext, options: ReadFilesOptions): EarlyTree | undefined;
  /** Ends a tree nobody took (its reader thread). */
  close(): void;
}

/** What a read-ahead needs of `jp query`'s options. */
export interface ReadAheadRequest {
  /** The `--attach` values, in order. */
  attach: readonly string[];
  /** The `-w` value. */
  workspace: string | undefined;
}

/**
 * Starts reading ahead the first directory inside the workspace that the query attaches, if it
 * attaches one. Never throws: anything unexpected only means the command walks the directory
 * itself.
 */
export async function startReadAhead(args: ReadAheadRequest, host: ReadAheadHost): Promise<ReadAhead | undefined> {
  try {
    const workspaceRoot = host.workspaceRoot(args.workspace);
    if (workspaceRoot === undefined) return undefined;
    for (const input of args.attach) {
      const target = await locateFileTarget(input, { workspaceRoot, cwd: host.cwd }).catch(() => undefined);
      if (target?.kind !== 'directory') continue;
      return readDirectoryAhead({ workspaceRoot, realPath: target.realPath, declaration: declarationOf(target), ...host.stores() });
    }
  } catch {
    // The command meets the same problem, and reports it.
  }
  return undefined;
}

function readDirectoryAhead(start: { workspaceRoot: string; realPath: string; declaration: string; spool: ContentSpool; fileContents?: FileContentCache | undefined }): ReadAhead {
  const warnings: string[] = [];
  let logger: HandlerContext['logger'] | undefined;
  let progress: ReadFilesOptions['onFile'];
  const ctx: HandlerContext = {
    workspaceRoot: start.workspaceRoot,
    cwd: start.workspaceRoot,
    limits: { ...DEFAULT_LIMITS, maxFiles: READ_AHEAD_FILES },
    logger: { warn: (message) => (logger === undefined ? warnings.push(message) : logger.warn(message)) },
    fileContents: start.fileContents,
    spool: start.spool,
  };
  const interrupted = new AbortController();
  const pace = createEventLoopPacer(interrupted.signal);
  // The reader thread starts now: it boots while the walk lists the first directories.
  const reading: FileReading = startFileReading(ctx, { pace, onFile: (file) => progress?.(file), reader: { from: 0 } });
  const { found, readOf } = feedingWalk(start.declaration, (files) => reading.feed(files));
  const walked = walkFiles({ workspaceRoot: start.workspaceRoot, start: start.realPath, input: start.declaration, logger: ctx.logger, pace, found });
  // The handler sees a failed walk when it takes the tree; untaken, it is nobody's to report.
  walked.catch(() => undefined);
  let taken = false;
  const tree: EarlyTree = {
    walked,
    readOf,
    finish: (order, command, options) => reading.finish(order, { ctx: command, options }),
    close: () => reading.close(),
  };
  return {
    take(realPath, declaration, command, options) {
      if (taken || realPath !== start.realPath || declaration !== start.declaration || command.workspaceRoot !== start.workspaceRoot) return undefined;
      taken = true;
      // From now on the command's limit on files decides how far reading goes ahead.
      ctx.limits = command.limits;
      logger = command.logger;
      if (command.signal?.aborted === true) interrupted.abort();
      else command.signal?.addEventListener('abort', () => interrupted.abort(), { once: true });
      progress = options.onFile;
      for (const message of warnings.splice(0)) logger.warn(message);
      return tree;
    },
    close: () => reading.close(),
  };
}
