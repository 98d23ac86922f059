import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Resource } from '@jp/core';
import type { ContentSpool, FileStamp, HandlerContext, SpooledBlob } from '../handler.ts';
import { READER_WORKER_SOURCE, type ReadBatch, type ReaderMessage, type ReaderStart } from './file-reader-worker.ts';
import { readLimitOf } from './oversize-read-length.ts';
import type { FileToRead } from './read-file-resource.ts';
import { takeReaderThread } from './reader-threads.ts';

export interface ReaderTuning {
  /**
   * From this many files on, a worker thread reads them; fewer are read faster than a worker
   * starts (or than one started ahead is handed its work).
   */
  parallelFrom: number;
  /** Files per message to the worker, as a walk finds them. */
  feedFiles: number;
  /**
   * Bytes per batch: one message from the worker when the bytes come back in buffers, one write
   * to the spool file when the worker writes there.
   */
  batchBytes: number;
  /** Batches in flight at most: bounds the memory the worker can run ahead with. */
  window: number;
  /** Files per message when the worker writes to `ctx.spool` (messages then carry no bytes). */
  batchFiles: number;
  /** Bytes a spool file may hold unflushed: past that, a flush starts in the background. */
  flushBytes: number;
  /**
   * Reader threads. They share the files as they go (each takes the next file nobody has taken),
   * so one with a core to spare reads more. One: on the 2-core development machine a second made
   * a first attach of the benchmark tree slower, a fourth time (1 210 against 1 105 ms, with 250
   * ms more CPU: its boot, its own compiled code, twice the messages), even sharing the files
   * file by file (RFD 002, "Where it stands"). Machines with more cores may want more; unmeasured.
   */
  readers: number;
  workerSource: string;
}

const TUNING: ReaderTuning = {
  parallelFrom: 200,
  feedFiles: 64,
  batchBytes: 1024 * 1024,
  window: 64,
  batchFiles: 256,
  flushBytes: 8 * 1024 * 1024,
  readers: 1,
  workerSource: READER_WORKER_SOURCE,
};

export interface ReadFilesOptions {
  /** Called for every file as its resource is made (progress). */
  onFile?: (file: FileToRead) => void;
  /** Lets the event loop run between files and throws once resolution was aborted. */
  pace: () => Promise<void>;
  /** Overrides of the constants above, and of the worker's program (tests). */
  tuning?: Partial<ReaderTuning>;
  /** The time stamps are judged against (ms since the epoch): `Date.now` unless a test sets it. */
  clock?: () => number;
  /** Filled in as files are read: how many the worker read, and why it stopped early if it did. */
  stats?: ReadFilesStats;
}

export interface ReadFilesStats {
  workerFiles: number;
  workerFailure?: string;
  /** Files whose content the worker wrote to `ctx.spool`. */
  spooledFiles?: number;
  /** Files whose stored content was used, unread (`ctx.fileContents`). */
  storedFiles?: number;
}

/**
 * The resources of the files of a directory or glob, in order: `startFileReading` given all of
 * them at once.
 */
export async function readFileResources(files: readonly FileToRead[], ctx: HandlerContext, options: ReadFilesOptions): Promise<Resource[]> {
  const reading = startFileReading(ctx, options);
  try {
    reading.feed(files);
    return await reading.finish();
  } finally {
    reading.close();
  }
}

/** The reading of many files, begun before all of them are known (a walk feeds them as it finds them). */
export interface FileReading {
  /** More files, after those fed before. A reader thread may start on them at once. */
  feed(files: readonly FileToRead[]): void;
  /**
   * The resources of every file fed, in the order fed, or in the order of `order` (files fed,
   * or fed now) when given. `as`: the context and options the resources are made under, when
   * they are not those the reading started with (a reading begun before the command knew its
   * configuration, `startEarlyTree`): its limits, size policy, logger and abort signal apply.
   */
  finish(order?: readonly FileToRead[], as?: { ctx: HandlerContext; options: ReadFilesOptions }): Promise<Resource[]>;
  /** Ends the reader threads, whether or not `finish` was called (call it in any case). */
  close(): void;
}

/**
 * Starts reading files as they are fed. From `parallelFrom` files on, reader threads read them —
 * the one started ahead (`warmReaderThread`) if there is one, and more to `readers` — while the
 * caller goes on finding more; `finish` then makes their resources (`readEveryFile`). A file
 * whose stamp is still the one the cache remembers (`ctx.fileContents`) is not read: its resource
 * holds the stored content, loaded only if a stage asks for the text. The others are read, and
 * those read as whole UTF-8 text are remembered when their stamp — taken before the read — had
 * settled (judged against the time reading started, which only makes fewer stamps count).
 */
export function startFileReading(ctx: HandlerContext, options: ReadFilesOptions): FileReading {
  const cache = ctx.fileContents;
  const tuning = { ...TUNING, ...options.tuning };
  const takenAt = (options.clock ?? Date.now)();
  // Loaded (with @jp/core's resources and the MIME tables) while the files are found and read, not before.
  const making = loadResourceMaking();
  const fed: FileToRead[] = [];
  /** What the cache remembers of each file fed, when its stored content could be used. */
  const remembered: Array<FileStamp | undefined> = [];
  let pool: ReaderPool | undefined;
  const cwd = workingDirectory();
  /** Files fed to the readers so far (the first `posted` of `fed`). */
  let posted = 0;
  let closed = false;

  /** Hands the readers what was fed since last time: a message's worth, or all of it. */
  const post = (all: boolean): void => {
    // An expansion over the limit will be refused once the walk has counted it: read no more of
    // it ahead (what was fed is bounded by the limit); only a caller who goes on anyway gets the rest.
    if (closed || (!all && fed.length > ctx.limits.maxFiles)) return;
    if (pool === undefined) {
      if (fed.length < tuning.parallelFrom) return;
      pool = startReaders(readLimitOf(ctx), tuning, ctx.spool, takeReaderThread());
    }
    if (fed.length - posted < (all ? 1 : tuning.feedFiles)) return;
    pool.feed(
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

  return {
    feed,
    async finish(order, as) {
      let at: Map<FileToRead, number> | undefined;
      if (order !== undefined) {
        at = new Map(fed.map((file, k) => [file, k]));
        const unfed: FileToRead[] = [];
        for (const file of order) {
          if (at.has(file)) continue;
          at.set(file, fed.length + unfed.length);
          unfed.push(file);
        }
        if (unfed.length > 0) feed(unfed);
      }
      post(true);
      pool?.end();
      const { readEveryFile, rememberingReads, mimeTypes } = await making;
      const onRead = cache === undefined ? undefined : rememberingReads(cache, takenAt);
      const resources = await readEveryFile(fed, { remembered, readers: pool, mimeTypes }, as?.ctx ?? ctx, as?.options ?? options, onRead);
      return at === undefined ? resources : order!.map((file) => resources[at.get(file)!]!);
    },
    close() {
      closed = true;
      pool?.stop();
    },
  };
}

/** `read-every-file.ts` and the MIME tables, loading; a failure is `finish`'s to report. */
function loadResourceMaking() {
  const loading = import('./read-every-file.ts').then(async (module) => ({ ...module, mimeTypes: await module.loadFileMimeTypes() }));
  loading.catch(() => undefined);
  return loading;
}

/**
 * The path a reader opens for a file: relative to the working directory (which reader threads
 * share) when the file lies under it, as a workspace's files do when jp runs at its root. The
 * kernel then looks up the names of `pkg/mod/file.ts` only, not every name from `/` on: the
 * reader thread read the benchmark tree in 334 ms instead of 344 (medians of 10, RFD 002).
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

/** Stamps as a worker takes them: four numbers per file (size, mtimeMs, ctimeMs, ino), NaN for none. */
function packStamps(stamps: ReadonlyArray<FileStamp | undefined>): Float64Array {
  const packed = new Float64Array(stamps.length * 4).fill(Number.NaN);
  stamps.forEach((stamp, k) => {
    if (stamp === undefined) return;
    packed.set([stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino], k * 4);
  });
  return packed;
}

/** One reader thread of a pool, and the spool file it writes to, if it does. */
export interface Reader {
  worker: Worker;
  /** [0]: how many of its batches this thread has used (`ReaderStart.control`). */
  consumed: Int32Array;
  spoolFile: ReturnType<typeof openSpoolFile> | undefined;
  /** The spool file and the blobs in it that resources were made of: what `stop` reports (`ContentSpool.written`). */
  spool: { file: string; blobs: SpooledBlob[] } | undefined;
  ended: boolean;
}

/** Reader threads sharing the same files, and their batches as they come, from whichever reader. */
export interface ReaderPool {
  /** More files for every reader (`ReaderFiles`). */
  feed(paths: string[], remembered: Float64Array): void;
  /** No more files: the readers send the rest and end. */
  end(): void;
  /** The next batch, or `'ended'` once every reader has ended and every batch was taken. */
  next(): Promise<{ batch: ReadBatch; from: Reader } | 'ended'>;
  /** A batch of `from`'s has been used: it may send another. */
  consumed(from: Reader): void;
  /** Why the first reader that failed did, if one did. */
  readonly failure: string | undefined;
  stop(): void;
}

/**
 * The spool file one worker writes to, opened for it, and the background flushes of what it
 * wrote: `fdatasync` on the thread pool every `flushBytes`, so that most of the bytes are on the
 * disk before the store's own fsync makes them durable (which then has little left to wait for).
 */
function openSpoolFile(spool: ContentSpool, flushBytes: number): { file: string; fd: number; wrote: (total: number) => void; close: () => void } {
  const file = spool.create();
  const fd = fs.openSync(file, 'r+');
  let flushedTo = 0;
  let pending = 0;
  let closing = false;
  const settle = (): void => {
    pending--;
    if (closing && pending === 0) fs.close(fd, () => undefined);
  };
  return {
    file,
    fd,
    wrote(total) {
      if (total - flushedTo < flushBytes) return;
      flushedTo = total;
      pending++;
      // Errors are not lost: the store's fsync of the same file reports them.
      fs.fdatasync(fd, settle);
    },
    close() {
      closing = true;
      if (pending === 0) fs.close(fd, () => undefined);
    },
  };
}

/**
 * Sets `tuning.readers` worker threads to read the files fed to them — `started` (booted ahead)
 * and new ones — each taking the next file nobody has taken. A reader that cannot be started is a
 * reader less (the first such failure is kept); with none, `next` answers `'ended'` at once.
 */
function startReaders(maxBytes: number, tuning: ReaderTuning, spool: ContentSpool | undefined, started: Worker | undefined): ReaderPool {
  const claims = new SharedArrayBuffer(4);
  const { batchBytes, window } = tuning;
  const inbox: Array<{ batch: ReadBatch; from: Reader }> = [];
  const readers: Reader[] = [];
  let failure: string | undefined;
  let live = 0;
  let stopped = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };

  for (let n = 0; n < Math.max(1, tuning.readers); n++) {
    const ahead = n === 0 ? started : undefined;
    const control = new SharedArrayBuffer(4);
    let spoolFile: ReturnType<typeof openSpoolFile> | undefined;
    let worker: Worker;
    try {
      spoolFile = spool === undefined ? undefined : openSpoolFile(spool, tuning.flushBytes);
      const output: ReaderStart['output'] =
        spoolFile === undefined ? { to: 'buffers', batchBytes, window } : { to: 'spool', fd: spoolFile.fd, batchFiles: tuning.batchFiles, batchBytes };
      worker = ahead ?? new Worker(tuning.workerSource, { eval: true });
      worker.postMessage({ kind: 'start', maxBytes, output, control, claims } satisfies ReaderMessage);
    } catch (error) {
      if (ahead !== undefined) void ahead.terminate();
      spoolFile?.close();
      failure ??= error instanceof Error ? error.message : String(error);
      continue;
    }
    const reader: Reader = {
      worker,
      consumed: new Int32Array(control),
      spoolFile,
      spool: spoolFile === undefined ? undefined : { file: spoolFile.file, blobs: [] },
      ended: false,
    };
    const end = (why: string | undefined): void => {
      if (reader.ended) return;
      reader.ended = true;
      live--;
      if (why !== undefined) failure ??= why;
      notify();
    };
    worker.on('message', (batch: ReadBatch) => {
      if (batch.spooled !== undefined) spoolFile?.wrote(batch.spooled);
      inbox.push({ batch, from: reader });
      notify();
    });
    worker.on('error', (error) => end(error.message));
    worker.on('exit', (code) => end(code === 0 ? undefined : `exit code ${code}`));
    readers.push(reader);
    live++;
  }

  const post = (message: ReaderMessage): void => {
    if (stopped) return;
    for (const reader of readers) if (!reader.ended) reader.worker.postMessage(message);
  };
  return {
    get failure() {
      return failure;
    },
    feed(paths, remembered) {
      post({ kind: 'files', paths, remembered });
    },
    end() {
      post({ kind: 'end' });
    },
    async next() {
      // Batches that arrived before their reader ended are used first; only then does its end count.
      while (inbox.length === 0 && live > 0 && !stopped) await new Promise<void>((resolve) => (wake = resolve));
      return inbox.shift() ?? 'ended';
    },
    consumed(from) {
      Atomics.add(from.consumed, 0, 1);
      Atomics.notify(from.consumed, 0);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      notify();
      for (const reader of readers) {
        // Wake a reader waiting for room, so it sees the termination at once.
        Atomics.add(reader.consumed, 0, window);
        Atomics.notify(reader.consumed, 0);
        reader.worker.unref();
        // What the resources refer to is what the spool holds; the descriptor goes only once the
        // reader is gone (it writes through it).
        if (reader.spool !== undefined) spool!.written(reader.spool.file, reader.spool.blobs, reader.ended);
        void reader.worker.terminate().then(() => reader.spoolFile?.close());
      }
    },
  };
}
