import { Worker } from 'node:worker_threads';
import { isTextResource, rememberResourceDigest, resourceByteLength, resourceSha256, textResourceFromUtf8, type Resource } from '@jp/core';
import type { FileContentCache, FileStamp, HandlerContext } from '../handler.ts';
import { loadFileMimeTypes, type FileMimeTypes } from './file-mime-type.ts';
import { fileStamp, isSettled } from './file-stamp.ts';
import { READER_WORKER_SOURCE, type ReadBatch, type ReaderWorkerData } from './file-reader-worker.ts';
import { HARD_MAX_BYTES } from './oversize-read-length.ts';
import { readFileResource, resourceFromBytes, type FileToRead } from './read-file-resource.ts';

export interface ReaderTuning {
  /** From this many files on, a worker thread reads them; fewer are read faster than a worker starts. */
  parallelFrom: number;
  /** Bytes per batch (one message from the worker). */
  batchBytes: number;
  /** Batches in flight at most, per worker: bounds the memory a worker can run ahead with. */
  window: number;
  /** Workers, each reading a contiguous share of the files. */
  workers: number;
  workerSource: string;
}

const TUNING: ReaderTuning = { parallelFrom: 200, batchBytes: 1024 * 1024, window: 64, workers: 2, workerSource: READER_WORKER_SOURCE };

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
  /** Files whose stored content was used, unread (`ctx.fileContents`). */
  storedFiles?: number;
}

/**
 * The resources of the files of a directory or glob, in order. A file whose stamp says it is
 * unchanged since its content was stored (`ctx.fileContents`) is not read: its resource holds the
 * stored content, loaded only if a stage asks for the text. The others are read (`readEveryFile`),
 * and those read as whole UTF-8 text are remembered when their stamp had settled before the read.
 */
export async function readFileResources(files: readonly FileToRead[], ctx: HandlerContext, options: ReadFilesOptions): Promise<Resource[]> {
  const cache = ctx.fileContents;
  if (cache === undefined) return readEveryFile(files, ctx, options);
  const mimeTypes = await loadFileMimeTypes();
  const takenAt = (options.clock ?? Date.now)();
  const stamps: Array<FileStamp | undefined> = [];
  const found: Array<Resource | undefined> = [];
  const unread: FileToRead[] = [];
  for (const [i, file] of files.entries()) {
    if (i % 64 === 0) await options.pace();
    const stamp = file.uri.startsWith('file://') ? fileStamp(file.realPath) : undefined;
    const stored = stamp === undefined ? undefined : storedFileResource(file, stamp, cache, ctx, mimeTypes);
    if (stored === undefined) {
      stamps.push(stamp);
      unread.push(file);
    } else options.onFile?.(file);
    found.push(stored);
  }
  if (options.stats !== undefined) options.stats.storedFiles = files.length - unread.length;
  const read = await readEveryFile(unread, ctx, options);
  read.forEach((resource, k) => {
    const stamp = stamps[k];
    if (stamp === undefined || !isSettled(stamp, takenAt) || !isTextResource(resource)) return;
    // Whole (a truncated text is shorter) and unchanged in size while read; a change after the stamp makes a new stamp anyway.
    if (resourceByteLength(resource) !== stamp.size) return;
    cache.remember(unread[k]!.uri, stamp, { sha256: resourceSha256(resource), byteLength: stamp.size });
  });
  let next = 0;
  return found.map((resource) => resource ?? read[next++]!);
}

/**
 * The resource of a file from its stored content, or `undefined` when it must be read: nothing
 * stored under this stamp, a file over the size threshold (the policy decides on a read), or a
 * binary format by name (read as a blob, never remembered).
 */
function storedFileResource(file: FileToRead, stamp: FileStamp, cache: FileContentCache, ctx: HandlerContext, mimeTypes: FileMimeTypes): Resource | undefined {
  if (stamp.size > ctx.limits.maxResourceBytes || mimeTypes.media(file.realPath) !== undefined) return undefined;
  const stored = cache.lookup(file.uri, stamp);
  if (stored === undefined) return undefined;
  const resource = textResourceFromUtf8({ uri: file.uri, name: file.name, mimeType: mimeTypes.text(file.realPath) }, () => stored.load());
  rememberResourceDigest(resource, { sha256: stored.sha256, byteLength: stored.byteLength });
  return resource;
}

/**
 * Reads the files into resources, in order. Many files are read by a
 * worker thread — open, fstat, read, sha256 and the UTF-8 check on the second core — while this
 * thread decodes text and builds resources (RFD 002). A file the worker does not read (an error,
 * not a regular file, over the size limit) is read here with `readFileResource`, so errors,
 * size-policy prompts and truncation are the same either way; so is every file after the worker
 * failed to start or died.
 */
async function readEveryFile(files: readonly FileToRead[], ctx: HandlerContext, options: ReadFilesOptions): Promise<Resource[]> {
  const resources: Resource[] = [];
  /** Reads the files after the last resource made, up to `to`, on this thread. */
  const readHere = async (to: number): Promise<void> => {
    for (const file of files.slice(resources.length, to)) {
      await options.pace();
      options.onFile?.(file);
      resources.push(await readFileResource(file, ctx));
    }
  };
  const tuning = { ...TUNING, ...options.tuning };
  if (files.length < tuning.parallelFrom) {
    await readHere(files.length);
    return resources;
  }

  const mimeTypes = await loadFileMimeTypes();
  const stats = options.stats ?? { workerFiles: 0 };
  const maxBytes = ctx.limits.sizePolicy === 'allow' ? HARD_MAX_BYTES : ctx.limits.maxResourceBytes;
  // All workers start at once; their shares are used in order, so the resources keep the files' order.
  const shares = shareBounds(files.length, Math.max(1, tuning.workers)).map(([from, to]) => ({ from, to, batches: workerBatches(files.slice(from, to), maxBytes, tuning) }));
  try {
    for (const { from, to, batches } of shares) {
      for (;;) {
        const next = await batches.next();
        if (next === 'done') break;
        if (typeof next === 'object' && 'failure' in next) {
          // Nothing is lost, only time: say so and read the rest of this share on this thread.
          stats.workerFailure = next.failure;
          ctx.logger.warn(`reading ${to - resources.length} files on one thread: the reader thread failed (${next.failure})`);
          await readHere(to);
          break;
        }
        for (const entry of next.entries) {
          await options.pace();
          const file = files[from + entry.index]!;
          options.onFile?.(file);
          if (entry.fallback) {
            resources.push(await readFileResource(file, ctx));
            continue;
          }
          // The batch's buffer is never written again: its bytes become the resources' content.
          const bytes = new Uint8Array(next.buffer, entry.offset, entry.length);
          resources.push(resourceFromBytes(file, bytes, { size: entry.size, shared: false, sha256: entry.sha256, utf8: entry.utf8 }, mimeTypes));
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
}

function workerBatches(files: readonly FileToRead[], maxBytes: number, tuning: ReaderTuning): BatchQueue {
  const control = new SharedArrayBuffer(4);
  const consumedCount = new Int32Array(control);
  const { batchBytes, window } = tuning;
  const workerData: ReaderWorkerData = { paths: files.map((file) => file.realPath), maxBytes, batchBytes, window, control };
  const queue: ReadBatch[] = [];
  let end: 'done' | { failure: string } | undefined;
  let wake: (() => void) | undefined;
  const settle = (outcome: 'done' | { failure: string }) => {
    end ??= outcome;
    wake?.();
  };

  let worker: Worker;
  try {
    worker = new Worker(tuning.workerSource, { eval: true, workerData });
  } catch (error) {
    const failure = { failure: error instanceof Error ? error.message : String(error) };
    return { next: async () => failure, consumed: () => undefined, stop: () => undefined };
  }
  worker.on('message', (batch: ReadBatch) => {
    queue.push(batch);
    wake?.();
  });
  worker.on('error', (error) => settle({ failure: error.message }));
  worker.on('exit', (code) => settle(code === 0 ? 'done' : { failure: `exit code ${code}` }));

  return {
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
      void worker.terminate();
    },
  };
}
