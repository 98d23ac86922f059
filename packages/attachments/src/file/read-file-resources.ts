import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { isTextResource, rememberResourceDigest, resourceByteLength, resourceSha256, textResourceFromUtf8, type Resource } from '@jp/core';
import type { ContentSpool, FileContentCache, FileStamp, HandlerContext, SpooledBlob } from '../handler.ts';
import { loadFileMimeTypes, type FileMimeTypes } from './file-mime-type.ts';
import { fileStamp, isSettled } from './file-stamp.ts';
import { READER_WORKER_SOURCE, type ReadBatch, type ReaderWorkerData } from './file-reader-worker.ts';
import { HARD_MAX_BYTES } from './oversize-read-length.ts';
import { readFileResource, resourceFromBytes, type FileToRead } from './read-file-resource.ts';
import { ReaderThreads } from './reader-threads.ts';
import { resourceFromSpool } from './spooled-resource.ts';

export interface ReaderTuning {
  /** From this many files on, a worker thread reads them; fewer are read faster than a worker starts. */
  parallelFrom: number;
  /**
   * Bytes per batch: one message from the worker when the bytes come back in buffers, one write
   * to the spool file when the worker writes there.
   */
  batchBytes: number;
  /** Batches in flight at most, per worker: bounds the memory a worker can run ahead with. */
  window: number;
  /** Files per message when the worker writes to `ctx.spool` (messages then carry no bytes). */
  batchFiles: number;
  /** Bytes a spool file may hold unflushed: past that, a flush starts in the background. */
  flushBytes: number;
  /**
   * Workers, each reading a contiguous share of the files. One: on the 2-core development machine
   * a second reader made a first attach of the benchmark tree no faster (1.40–1.48 s against
   * 1.28–1.40 s, and 851 against 869 ms once spooled bytes were gathered): its two cores do not
   * give two threads' worth of CPU (RFD 002, "Where it stands").
   */
  workers: number;
  workerSource: string;
}

const TUNING: ReaderTuning = {
  parallelFrom: 200,
  batchBytes: 1024 * 1024,
  window: 64,
  batchFiles: 256,
  flushBytes: 8 * 1024 * 1024,
  workers: 1,
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
  /** Reader threads started ahead (while the walk ran), used before any new one is started. */
  readers?: ReaderThreads;
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
 * Reader threads for the files a walk is finding: started once it has found enough for them to
 * pay (`parallelFrom`), so they boot while it goes on. Pass `found` to the walk and `readers` to
 * `readFileResources`, and close them when done.
 */
export function readersForWalk(): { readers: ReaderThreads; found: (count: number) => void } {
  const readers = new ReaderThreads(TUNING.workerSource);
  let started = false;
  const found = (count: number): void => {
    if (started || count < TUNING.parallelFrom) return;
    started = true;
    readers.start(TUNING.workers);
  };
  return { readers, found };
}

/**
 * The resources of the files of a directory or glob, in order (`readEveryFile`). A file whose
 * stamp is still the one the cache remembers (`ctx.fileContents`) is not read: its resource holds
 * the stored content, loaded only if a stage asks for the text. The others are read, and those
 * read as whole UTF-8 text are remembered when their stamp — taken before the read — had settled.
 */
export async function readFileResources(files: readonly FileToRead[], ctx: HandlerContext, options: ReadFilesOptions): Promise<Resource[]> {
  const cache = ctx.fileContents;
  if (cache === undefined) return readEveryFile(files, ctx, options, undefined);
  const takenAt = (options.clock ?? Date.now)();
  // Remembered as each resource is made, so most of it happens while the reader thread reads on.
  return readEveryFile(files, ctx, options, (file, resource, stamp) => {
    if (stamp === undefined || !file.uri.startsWith('file://') || !isSettled(stamp, takenAt) || !isTextResource(resource)) return;
    // Whole (a truncated text is shorter) and unchanged in size while read; a change after the stamp makes a new stamp anyway.
    if (resourceByteLength(resource) !== stamp.size) return;
    cache.remember(file.uri, stamp, { sha256: resourceSha256(resource), byteLength: stamp.size });
  });
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
 * Reads the files into resources, in order. Many files are read by worker threads — stat, open,
 * fstat, read, sha256 and the UTF-8 check off this thread — while this thread builds resources
 * (RFD 002). A file whose remembered stamp (`ctx.fileContents`) a worker finds unchanged is not
 * read: this thread takes its stored content. With `ctx.spool`, a worker writes the bytes into a
 * spool file as it reads them and sends only where they lie: the store adopts that file instead
 * of writing the content again, and it is flushed to disk in the background meanwhile (RFD 008).
 * A file the worker does not read (an error, not a regular file, over the size limit) is read
 * here with `readFileResource`, so errors, size-policy prompts and truncation are the same either
 * way; so is every file after the worker failed to start or died.
 */
async function readEveryFile(files: readonly FileToRead[], ctx: HandlerContext, options: ReadFilesOptions, onRead: OnRead | undefined): Promise<Resource[]> {
  const cache = ctx.fileContents;
  // Loaded (a module of tables) while the reader starts on the files, not before.
  const mimeTypesLoaded = loadFileMimeTypes();
  let mimeTypes: FileMimeTypes;
  const resources: Resource[] = [];
  const stats = options.stats ?? { workerFiles: 0 };
  if (cache !== undefined) stats.storedFiles = 0;
  const isWorkspaceFile = (k: number) => files[k]!.uri.startsWith('file://');
  /** What the cache remembers of file `k`, when its stored content could be used. */
  const remembered = files.map((file, k) => {
    const stamp = cache !== undefined && isWorkspaceFile(k) ? cache.rememberedStamp(file.uri) : undefined;
    return stamp !== undefined && stamp.size <= ctx.limits.maxResourceBytes ? stamp : undefined;
  });
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
  /** Resolves the files after the last resource made, up to `to`, on this thread. */
  const readHere = async (to: number): Promise<void> => {
    for (let k = resources.length; k < to; k++) {
      await options.pace();
      options.onFile?.(files[k]!);
      const stamp = remembered[k] === undefined ? undefined : fileStamp(files[k]!.realPath);
      if (!takeStored(k, stamp)) await readOne(k, stamp);
    }
  };
  const tuning = { ...TUNING, ...options.tuning };
  if (files.length < tuning.parallelFrom) {
    mimeTypes = await mimeTypesLoaded;
    await readHere(files.length);
    return resources;
  }

  const maxBytes = ctx.limits.sizePolicy === 'allow' ? HARD_MAX_BYTES : ctx.limits.maxResourceBytes;
  // All workers start at once; their shares are used in order, so the resources keep the files' order.
  const shares = shareBounds(files.length, Math.max(1, tuning.workers)).map(([from, to]) => ({
    from,
    to,
    batches: workerBatches(files.slice(from, to), packStamps(remembered.slice(from, to)), maxBytes, tuning, ctx.spool, options.readers?.take()),
  }));
  try {
    mimeTypes = await mimeTypesLoaded;
    for (const { from, to, batches } of shares) {
      for (;;) {
        let next = await batches.next();
        if (next === 'done') {
          if (resources.length === to) break;
          // A share cut short (never seen) is read here rather than silently lost.
          next = { failure: `it ended after ${resources.length - from} of ${to - from} files` };
        }
        if ('failure' in next) {
          // Nothing is lost, only time: say so and read the rest of this share on this thread.
          stats.workerFailure = next.failure;
          ctx.logger.warn(`reading ${to - resources.length} files on one thread: the reader thread failed (${next.failure})`);
          await readHere(to);
          break;
        }
        for (const entry of next.entries) {
          if (++unpaced >= PACE_EVERY_FILES) {
            unpaced = 0;
            await options.pace();
          }
          const k = from + entry.index;
          const file = files[k]!;
          options.onFile?.(file);
          if (entry.kind !== 'read') {
            // Unchanged: the stamp is the one remembered. A fallback is read here, stamped now.
            if (entry.kind === 'fallback' || !takeStored(k, remembered[k])) await readOne(k, undefined);
            continue;
          }
          let resource: Resource;
          if (next.buffer === undefined) {
            const spooled = { file: batches.spool!.file, sha256: entry.sha256, offset: entry.offset, size: entry.length };
            batches.spool!.blobs.push(spooled);
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
        batches.consumed();
      }
    }
    return resources;
  } finally {
    for (const { batches } of shares) batches.stop();
  }
}

/** `[from, to)` of `count` items in `parts` contiguous shares of near-equal size. */
function shareBounds(count: number, parts: number): Array<[number, number]> {
  const bounds: Array<[number, number]> = [];
  for (let part = 0; part < parts; part++) bounds.push([Math.floor((count * part) / parts), Math.floor((count * (part + 1)) / parts)]);
  return bounds.filter(([from, to]) => to > from);
}

/** The worker's batches, one `next()` at a time: a batch, `'done'`, or why the worker failed. */
interface BatchQueue {
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

function workerBatches(
  files: readonly FileToRead[],
  remembered: Float64Array,
  maxBytes: number,
  tuning: ReaderTuning,
  spool: ContentSpool | undefined,
  started: Worker | undefined,
): BatchQueue {
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
    const output: ReaderWorkerData['output'] =
      spoolFile === undefined ? { to: 'buffers', batchBytes, window } : { to: 'spool', fd: spoolFile.fd, batchFiles: tuning.batchFiles, batchBytes };
    const workerData: ReaderWorkerData = { paths: files.map((file) => file.realPath), remembered, maxBytes, output, control };
    if (started === undefined) worker = new Worker(tuning.workerSource, { eval: true, workerData });
    else {
      worker = started;
      worker.postMessage(workerData);
    }
  } catch (error) {
    spoolFile?.close();
    const failure = { failure: error instanceof Error ? error.message : String(error) };
    return { next: async () => failure, consumed: () => undefined, stop: () => undefined };
  }
  const spooled = spoolFile === undefined ? undefined : { file: spoolFile.file, blobs: [] as SpooledBlob[] };
  worker.on('message', (batch: ReadBatch) => {
    if (batch.spooled !== undefined) spoolFile?.wrote(batch.spooled);
    queue.push(batch);
    wake?.();
  });
  worker.on('error', (error) => settle({ failure: error.message }));
  worker.on('exit', (code) => settle(code === 0 ? 'done' : { failure: `exit code ${code}` }));

  return {
    spool: spooled,
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
