import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { isTextResource, rememberResourceDigest, resourceByteLength, resourceSha256, textResourceFromUtf8, type Resource } from '@jp/core';
import type { ContentSpool, FileContentCache, FileStamp, HandlerContext, SpooledBlob } from '../handler.ts';
import { loadFileMimeTypes, type FileMimeTypes } from './file-mime-type.ts';
import { fileStamp, isSettled } from './file-stamp.ts';
import { READER_WORKER_SOURCE, type ReadBatch, type ReaderMessage, type ReaderStart } from './file-reader-worker.ts';
import { HARD_MAX_BYTES } from './oversize-read-length.ts';
import { readFileResource, resourceFromBytes, type FileToRead } from './read-file-resource.ts';
import { takeReaderThread } from './reader-threads.ts';
import { resourceFromSpool } from './spooled-resource.ts';

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
  workerSource: string;
}

/*
 * One reader thread. On the 2-core development machine a second one made a first attach of the
 * benchmark tree no faster, three times (1.40–1.48 s against 1.28–1.40 s, 851 against 869 ms,
 * 491 against 449 ms of reading): its two cores do not give two threads' worth of CPU. What a
 * second core is good for there is reading while the walk runs (RFD 002, "Where it stands").
 */
const TUNING: ReaderTuning = {
  parallelFrom: 200,
  feedFiles: 64,
  batchBytes: 1024 * 1024,
  window: 64,
  batchFiles: 256,
  flushBytes: 8 * 1024 * 1024,
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

/** Files resolved from a reader's messages between two calls to `options.pace`. */
const PACE_EVERY_FILES = 32;

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
   * or fed now) when given.
   */
  finish(order?: readonly FileToRead[]): Promise<Resource[]>;
  /** Ends the reader thread, whether or not `finish` was called (call it in any case). */
  close(): void;
}

/**
 * Starts reading files as they are fed. From `parallelFrom` files on, a worker thread reads them
 * — the one started ahead (`warmReaderThread`) if there is one — while the caller goes on finding
 * more; `finish` then makes their resources (`readEveryFile`). A file whose stamp is still the one
 * the cache remembers (`ctx.fileContents`) is not read: its resource holds the stored content,
 * loaded only if a stage asks for the text. The others are read, and those read as whole UTF-8
 * text are remembered when their stamp — taken before the read — had settled.
 */
export function startFileReading(ctx: HandlerContext, options: ReadFilesOptions): FileReading {
  const cache = ctx.fileContents;
  const tuning = { ...TUNING, ...options.tuning };
  const takenAt = (options.clock ?? Date.now)();
  // Remembered as each resource is made, so most of it happens while the reader thread reads on.
  const onRead: OnRead | undefined =
    cache === undefined
      ? undefined
      : (file, resource, stamp) => {
          if (stamp === undefined || !file.uri.startsWith('file://') || !isSettled(stamp, takenAt) || !isTextResource(resource)) return;
          // Whole (a truncated text is shorter) and unchanged in size while read; a change after the stamp makes a new stamp anyway.
          if (resourceByteLength(resource) !== stamp.size) return;
          cache.remember(file.uri, stamp, { sha256: resourceSha256(resource), byteLength: stamp.size });
        };
  // Loaded (a module of tables) while the files are found and read, not before.
  const mimeTypesLoaded = loadFileMimeTypes();
  const fed: FileToRead[] = [];
  /** What the cache remembers of each file fed, when its stored content could be used. */
  const remembered: Array<FileStamp | undefined> = [];
  let reader: ReaderQueue | undefined;
  /** Files fed to the reader so far (the first `posted` of `fed`). */
  let posted = 0;
  let closed = false;

  /** Hands the reader what was fed since last time: a message's worth, or all of it. */
  const post = (all: boolean): void => {
    // An expansion over the limit will be refused once the walk has counted it: read no more of
    // it ahead (what was fed is bounded by the limit); only a caller who goes on anyway gets the rest.
    if (closed || (!all && fed.length > ctx.limits.maxFiles)) return;
    if (reader === undefined) {
      if (fed.length < tuning.parallelFrom) return;
      const maxBytes = ctx.limits.sizePolicy === 'allow' ? HARD_MAX_BYTES : ctx.limits.maxResourceBytes;
      reader = startReader(maxBytes, tuning, ctx.spool, takeReaderThread());
    }
    if (fed.length - posted < (all ? 1 : tuning.feedFiles)) return;
    reader.feed(
      fed.slice(posted).map((file) => file.realPath),
      packStamps(remembered.slice(posted)),
    );
    posted = fed.length;
  };

  return {
    feed(files) {
      for (const file of files) {
        fed.push(file);
        const stamp = cache !== undefined && file.uri.startsWith('file://') ? cache.rememberedStamp(file.uri) : undefined;
        remembered.push(stamp !== undefined && stamp.size <= ctx.limits.maxResourceBytes ? stamp : undefined);
      }
      post(false);
    },
    async finish(order) {
      let at: Map<FileToRead, number> | undefined;
      if (order !== undefined) {
        at = new Map(fed.map((file, k) => [file, k]));
        const unfed: FileToRead[] = [];
        for (const file of order) {
          if (at.has(file)) continue;
          at.set(file, fed.length + unfed.length);
          unfed.push(file);
        }
        if (unfed.length > 0) this.feed(unfed);
      }
      post(true);
      reader?.end();
      const resources = await readEveryFile(fed, { remembered, reader, mimeTypes: await mimeTypesLoaded }, ctx, options, onRead);
      return at === undefined ? resources : order!.map((file) => resources[at.get(file)!]!);
    },
    close() {
      closed = true;
      reader?.stop();
    },
  };
}

/**
 * The resource of a file from its stored content, or `undefined` when it must be read: nothing
 * stored under this stamp, a file over the size threshold (the policy decides on a read), or a
 * binary format by name (read as a blob, never remembered).
 */
function storedFileResource(file: FileToRead, stamp: FileStamp, cache: FileContentCache, ctx: HandlerContext, mimeTypes: FileMimeTypes): Resource | undefined {
  const types = mimeTypes.of(file.realPath);
  if (stamp.size > ctx.limits.maxResourceBytes || types.media !== undefined) return undefined;
  const stored = cache.lookup(file.uri, stamp);
  if (stored === undefined) return undefined;
  const resource = textResourceFromUtf8({ uri: file.uri, name: file.name, mimeType: types.text }, () => stored.load());
  rememberResourceDigest(resource, { sha256: stored.sha256, byteLength: stored.byteLength });
  return resource;
}

/** Called for each file read (not taken from the store) as its resource is made, with the stamp it had before the read where known. */
type OnRead = (file: FileToRead, resource: Resource, stamp: FileStamp | undefined) => void;

/** Stamps as a worker takes them: four numbers per file (size, mtimeMs, ctimeMs, ino), NaN for none. */
function packStamps(stamps: ReadonlyArray<FileStamp | undefined>): Float64Array {
  const packed = new Float64Array(stamps.length * 4).fill(Number.NaN);
  stamps.forEach((stamp, k) => {
    if (stamp === undefined) return;
    packed.set([stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino], k * 4);
  });
  return packed;
}

/**
 * Makes the resources of the files, in order. Many files are read by a worker thread — stat,
 * open, fstat, read, sha256 and the UTF-8 check off this thread — while this thread builds
 * resources (RFD 002); `reader` is that worker, fed every file already. A file whose remembered
 * stamp (`ctx.fileContents`) the worker finds unchanged is not read: this thread takes its stored
 * content. With `ctx.spool`, the worker writes the bytes into a spool file as it reads them and
 * sends only where they lie: the store adopts that file instead of writing the content again, and
 * it is flushed to disk in the background meanwhile (RFD 008). A file the worker does not read (an
 * error, not a regular file, over the size limit) is read here with `readFileResource`, so errors,
 * size-policy prompts and truncation are the same either way; so is every file after the worker
 * failed to start or died.
 */
async function readEveryFile(
  files: readonly FileToRead[],
  given: { remembered: ReadonlyArray<FileStamp | undefined>; reader: ReaderQueue | undefined; mimeTypes: FileMimeTypes },
  ctx: HandlerContext,
  options: ReadFilesOptions,
  onRead: OnRead | undefined,
): Promise<Resource[]> {
  const cache = ctx.fileContents;
  const { remembered, reader, mimeTypes } = given;
  const resources: Resource[] = [];
  const stats = options.stats ?? { workerFiles: 0 };
  if (cache !== undefined) stats.storedFiles = 0;
  const isWorkspaceFile = (k: number) => files[k]!.uri.startsWith('file://');
  /** Takes file `k`'s resource from the store when its `stamp` is as remembered; false when it must be read. */
  const takeStored = (k: number, stamp: FileStamp | undefined): boolean => {
    const fromStore = stamp === undefined ? undefined : storedFileResource(files[k]!, stamp, cache!, ctx, mimeTypes);
    if (fromStore === undefined) return false;
    stats.storedFiles!++;
    resources.push(fromStore);
    return true;
  };
  /** Reads file `k` here, stamped before the read for the cache (a stamp just taken may be reused). */
  const readOne = async (k: number, stamp: FileStamp | undefined): Promise<void> => {
    const file = files[k]!;
    const before = stamp ?? (cache !== undefined && isWorkspaceFile(k) ? fileStamp(file.realPath) : undefined);
    const resource = await readFileResource(file, ctx);
    resources.push(resource);
    onRead?.(file, resource, before);
  };
  /** Files since the event loop last ran: it runs (and an abort gets through) every few files, as an await per file costs more than the file. */
  let unpaced = 0;
  /** Resolves the files after the last resource made, to the end, on this thread. */
  const readHere = async (): Promise<void> => {
    for (let k = resources.length; k < files.length; k++) {
      await options.pace();
      options.onFile?.(files[k]!);
      const stamp = remembered[k] === undefined ? undefined : fileStamp(files[k]!.realPath);
      if (!takeStored(k, stamp)) await readOne(k, stamp);
    }
  };
  if (reader === undefined) {
    await readHere();
    return resources;
  }

  for (;;) {
    let next = await reader.next();
    if (next === 'done') {
      if (resources.length === files.length) break;
      // A reader that ended early (never seen) leaves the rest to this thread rather than losing it.
      next = { failure: `it ended after ${resources.length} of ${files.length} files` };
    }
    if ('failure' in next) {
      // Nothing is lost, only time: say so and read the rest on this thread.
      stats.workerFailure = next.failure;
      ctx.logger.warn(`reading ${files.length - resources.length} files on one thread: the reader thread failed (${next.failure})`);
      await readHere();
      break;
    }
    for (const entry of next.entries) {
      if (++unpaced >= PACE_EVERY_FILES) {
        unpaced = 0;
        await options.pace();
      }
      const k = entry.index;
      const file = files[k]!;
      options.onFile?.(file);
      if (entry.kind !== 'read') {
        // Unchanged: the stamp is the one remembered. A fallback is read here, stamped now.
        if (entry.kind === 'fallback' || !takeStored(k, remembered[k])) await readOne(k, undefined);
        continue;
      }
      let resource: Resource;
      if (next.buffer === undefined) {
        const spooled = { file: reader.spool!.file, sha256: entry.sha256, offset: entry.offset, size: entry.length };
        reader.spool!.blobs.push(spooled);
        resource = resourceFromSpool(file, spooled, { size: entry.size, utf8: entry.utf8 }, ctx.spool!, mimeTypes);
        stats.spooledFiles = (stats.spooledFiles ?? 0) + 1;
      } else {
        // The batch's buffer is never written again: its bytes become the resources' content.
        const bytes = new Uint8Array(next.buffer, entry.offset, entry.length);
        resource = resourceFromBytes(file, bytes, { size: entry.size, shared: false, sha256: entry.sha256, utf8: entry.utf8 }, mimeTypes);
      }
      resources.push(resource);
      onRead?.(file, resource, { size: entry.size, mtimeMs: entry.mtimeMs, ctimeMs: entry.ctimeMs, ino: entry.ino });
      stats.workerFiles++;
    }
    reader.consumed();
  }
  return resources;
}

/** The worker's batches, one `next()` at a time: a batch, `'done'`, or why the worker failed. */
interface ReaderQueue {
  /** More files for the worker (`ReaderFiles`). */
  feed(paths: string[], remembered: Float64Array): void;
  /** No more files: the worker sends the rest and ends. */
  end(): void;
  next(): Promise<ReadBatch | 'done' | { failure: string }>;
  /** The last batch has been used: the worker may send another. */
  consumed(): void;
  stop(): void;
  /**
   * The spool file the worker writes to, if it does, and the blobs in it that resources were made
   * of: what `stop` reports to the spool (`ContentSpool.written`).
   */
  spool?: { file: string; blobs: SpooledBlob[] } | undefined;
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

/** Sets a worker to read: `started` (booted ahead) or a new one; the files come through `feed`. */
function startReader(maxBytes: number, tuning: ReaderTuning, spool: ContentSpool | undefined, started: Worker | undefined): ReaderQueue {
  const control = new SharedArrayBuffer(4);
  const consumedCount = new Int32Array(control);
  const { batchBytes, window } = tuning;
  let spoolFile: ReturnType<typeof openSpoolFile> | undefined;
  const queue: ReadBatch[] = [];
  let end: 'done' | { failure: string } | undefined;
  let wake: (() => void) | undefined;
  const settle = (outcome: 'done' | { failure: string }) => {
    end ??= outcome;
    wake?.();
  };

  let worker: Worker;
  try {
    spoolFile = spool === undefined ? undefined : openSpoolFile(spool, tuning.flushBytes);
    const output: ReaderStart['output'] =
      spoolFile === undefined ? { to: 'buffers', batchBytes, window } : { to: 'spool', fd: spoolFile.fd, batchFiles: tuning.batchFiles, batchBytes };
    worker = started ?? new Worker(tuning.workerSource, { eval: true });
    worker.postMessage({ kind: 'start', maxBytes, output, control } satisfies ReaderMessage);
  } catch (error) {
    if (started !== undefined) void started.terminate();
    spoolFile?.close();
    const failure = { failure: error instanceof Error ? error.message : String(error) };
    return { feed: () => undefined, end: () => undefined, next: async () => failure, consumed: () => undefined, stop: () => undefined };
  }
  const spooled = spoolFile === undefined ? undefined : { file: spoolFile.file, blobs: [] as SpooledBlob[] };
  worker.on('message', (batch: ReadBatch) => {
    if (batch.spooled !== undefined) spoolFile?.wrote(batch.spooled);
    queue.push(batch);
    wake?.();
  });
  worker.on('error', (error) => settle({ failure: error.message }));
  worker.on('exit', (code) => settle(code === 0 ? 'done' : { failure: `exit code ${code}` }));
  let stopped = false;

  return {
    spool: spooled,
    feed(paths, remembered) {
      if (!stopped) worker.postMessage({ kind: 'files', paths, remembered } satisfies ReaderMessage);
    },
    end() {
      if (!stopped) worker.postMessage({ kind: 'end' } satisfies ReaderMessage);
    },
    async next() {
      while (queue.length === 0 && end === undefined) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      // Batches that arrived before the worker ended are used first; only then does its end count.
      return queue.shift() ?? end!;
    },
    consumed() {
      Atomics.add(consumedCount, 0, 1);
      Atomics.notify(consumedCount, 0);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      end ??= 'done';
      // Wake a worker waiting for room, so it sees the termination at once.
      Atomics.add(consumedCount, 0, window);
      Atomics.notify(consumedCount, 0);
      worker.unref();
      // What the resources refer to is what the spool holds; the descriptor goes only once the
      // worker is gone (it writes through it).
      if (spooled !== undefined) spool!.written(spooled.file, spooled.blobs);
      void worker.terminate().then(() => spoolFile?.close());
    },
  };
}
