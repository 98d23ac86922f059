import path from 'node:path';
import type { Resource } from '@jp/core';
import type { FileStamp, HandlerContext } from '../handler.ts';
import { readLimitOf } from './oversize-read-length.ts';
import type { FileToRead } from './read-file-resource.ts';
import { READER_SETTINGS, startReaderThread, type ReaderSettings, type ReaderThread } from './reader-thread.ts';

/** From this many files on, a reader thread reads them; fewer are read sooner on this thread. */
const PARALLEL_FROM = 200;
/** Files per message to the reader, as a walk finds them. */
const FEED_FILES = 64;

export interface ReadFilesOptions {
  /** Called for every file as its resource is made (progress). */
  onFile?: (file: FileToRead) => void;
  /** Lets the event loop run between files and throws once resolution was aborted. */
  pace: () => Promise<void>;
  /** The clock stamps are judged against (ms since the epoch), for tests. */
  clock?: () => number;
  /**
   * Overrides of the reader's settings, and from how many files on it is used. `from: 0` starts
   * the reader thread at once, before any file is fed, so that it boots while the first files are
   * found (a read-ahead, which knows a directory is coming).
   */
  reader?: Partial<Omit<ReaderSettings, 'maxBytes'>> & { from?: number };
  /** Filled in as files are read. */
  stats?: ReadFilesStats;
}

export interface ReadFilesStats {
  /** Files the reader thread read. */
  readerFiles: number;
  /** Why the reader stopped early, if it did. */
  readerFailure?: string;
  /** Files whose content was known from the cache (`ctx.fileContents`) and not read. */
  knownFiles: number;
}

/** The reading of many files, begun before all of them are known (a walk feeds them as it finds them). */
export interface FileReading {
  /** More files, after those fed before. */
  feed(files: readonly FileToRead[]): void;
  /**
   * The resources of every file fed, in the order fed, or in the order of `order` (files fed, or
   * fed now) when given. `as`: the context and options they are made under, when they are not
   * those the reading started with (a read-ahead begun before the command knew its
   * configuration): its limits, size policy, logger and abort signal then apply.
   */
  finish(order?: readonly FileToRead[], as?: { ctx: HandlerContext; options: ReadFilesOptions }): Promise<Resource[]>;
  /** Ends the reader thread, whether or not `finish` was called (call it in any case). */
  close(): void;
}

/**
 * Starts reading files as they are fed. With a spool (`ctx.spool`) and from `PARALLEL_FROM` files
 * on, a reader thread reads them into it while the caller finds more; `finish` makes their
 * resources, reading on this thread whatever the reader did not. A file whose stamp is still the
 * one the cache (`ctx.fileContents`) remembers is not read at all.
 */
export function startFileReading(ctx: HandlerContext, options: ReadFilesOptions): FileReading {
  const cache = ctx.fileContents;
  const from = options.reader?.from ?? PARALLEL_FROM;
  const takenAt = (options.clock ?? Date.now)();
  // The MIME tables and resource making load while the files are found and read, not before.
  const making = import('./file-resources.ts');
  making.catch(() => undefined);
  const fed: FileToRead[] = [];
  /** What the cache remembers of each file fed, when its content could be taken from there. */
  const remembered: Array<FileStamp | undefined> = [];
  const cwd = workingDirectory();
  let reader: ReaderThread | undefined;
  let posted = 0;
  let closed = false;

  /** Hands the reader what was fed since last time: a message's worth, or all of it. */
  const post = (all: boolean): void => {
    // An expansion over the limit will be refused once the walk has counted it: read no more of it ahead.
    if (closed || ctx.spool === undefined || (!all && fed.length > ctx.limits.maxFiles)) return;
    if (reader === undefined) {
      if (fed.length < from) return;
      reader = startReaderThread(ctx.spool, { ...READER_SETTINGS, ...options.reader, maxBytes: readLimitOf(ctx) });
      if (reader === undefined) {
        closed = true; // no thread: every file is read on this thread
        return;
      }
    }
    if (fed.length - posted < (all ? 1 : FEED_FILES)) return;
    reader.feed(
      fed.slice(posted).map((file) => openablePath(file.realPath, cwd)),
      packStamps(remembered.slice(posted)),
    );
    posted = fed.length;
  };

  const feed = (files: readonly FileToRead[]): void => {
    for (const file of files) {
      fed.push(file);
      const stamp = cache !== undefined && file.uri.startsWith('file://') ? cache.rememberedStamp(file.uri) : undefined;
      remembered.push(stamp !== undefined && stamp.size <= ctx.limits.maxResourceBytes ? stamp : undefined);
    }
    post(false);
  };

  if (from === 0) post(false);
  return {
    feed,
    async finish(order, as) {
      let at: Map<FileToRead, number> | undefined;
      if (order !== undefined) {
        at = new Map(fed.map((file, k) => [file, k]));
        const unfed = order.filter((file) => !at!.has(file));
        unfed.forEach((file, k) => at!.set(file, fed.length + k));
        if (unfed.length > 0) feed(unfed);
      }
      post(true);
      reader?.end();
      const { makeFileResources } = await making;
      const resources = await makeFileResources(fed, { remembered, reader, takenAt }, as?.ctx ?? ctx, as?.options ?? options);
      return at === undefined ? resources : order!.map((file) => resources[at.get(file)!]!);
    },
    close() {
      closed = true;
      reader?.stop();
    },
  };
}

/**
 * The path a reader opens: relative to the working directory (which threads share) when the file
 * lies under it, so the kernel looks up fewer names per open.
 */
function openablePath(realPath: string, cwd: string | undefined): string {
  return cwd !== undefined && realPath.startsWith(cwd) ? realPath.slice(cwd.length) : realPath;
}

/** The working directory with a separator after it; `undefined` if it is gone (paths stay absolute). */
function workingDirectory(): string | undefined {
  try {
    return `${process.cwd()}${path.sep}`;
  } catch {
    return undefined;
  }
}

/** Stamps as the reader takes them: four numbers per file (size, mtimeMs, ctimeMs, ino), NaN for none. */
function packStamps(stamps: ReadonlyArray<FileStamp | undefined>): Float64Array {
  const packed = new Float64Array(stamps.length * 4).fill(Number.NaN);
  stamps.forEach((stamp, k) => {
    if (stamp !== undefined) packed.set([stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino], k * 4);
  });
  return packed;
}
