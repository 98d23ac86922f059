import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ContentSpool, SpooledBlob } from '../handler.ts';
import { READER_WORKER_SOURCE, type ReadBatch, type ReaderMessage } from './reader-worker.ts';

export interface ReaderSettings {
  /** Files larger than this come back as `fallback`. */
  maxBytes: number;
  /** Outcomes per message from the reader. */
  batchFiles: number;
  /** Bytes the reader gathers before each write to the spool file. */
  batchBytes: number;
  /** Bytes the spool file may hold unflushed before a flush starts in the background. */
  flushBytes: number;
  /** The reader's program (tests replace it). */
  source: string;
}

export const READER_SETTINGS: Omit<ReaderSettings, 'maxBytes'> = {
  batchFiles: 256,
  batchBytes: 1024 * 1024,
  flushBytes: 8 * 1024 * 1024,
  source: READER_WORKER_SOURCE,
};

/**
 * A thread that reads files into a spool file (`ContentSpool`) while this thread finds more of
 * them and makes resources of what it has read: stat, open, read, sha256 and the UTF-8 check
 * happen off the main thread, and the bytes never come back to it.
 */
export interface ReaderThread {
  /** More files to read (`ReaderFiles`). */
  feed(paths: string[], remembered: Float64Array): void;
  /** No more files: the reader sends the rest and ends. */
  end(): void;
  /** The next batch of outcomes, or `'ended'` once the reader has ended and every batch was taken. */
  next(): Promise<ReadBatch | 'ended'>;
  /** Records that a blob of the spool file is used (a resource refers to it). */
  use(blob: Omit<SpooledBlob, 'file'>): void;
  /** Why the reader failed, if it did. */
  readonly failure: string | undefined;
  /** Ends the reader and tells the spool what its file holds that is used. */
  stop(): void;
}

/** Starts a reader that writes into a new file of `spool`; `undefined` when no thread or file can be had. */
export function startReaderThread(spool: ContentSpool, settings: ReaderSettings): ReaderThread | undefined {
  let file: string;
  let fd: number;
  let worker: Worker;
  try {
    file = spool.create();
    fd = fs.openSync(file, 'r+');
  } catch {
    return undefined;
  }
  try {
    worker = new Worker(settings.source, { eval: true });
    worker.postMessage({ kind: 'start', maxBytes: settings.maxBytes, fd, batchFiles: settings.batchFiles, batchBytes: settings.batchBytes } satisfies ReaderMessage);
  } catch {
    fs.closeSync(fd);
    return undefined;
  }
  const flusher = backgroundFlush(fd, settings.flushBytes);
  const inbox: ReadBatch[] = [];
  const used: SpooledBlob[] = [];
  let failure: string | undefined;
  let ended = false;
  let stopped = false;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const end = (why: string | undefined): void => {
    if (ended) return;
    ended = true;
    failure ??= why;
    notify();
  };
  worker.on('message', (batch: ReadBatch) => {
    flusher.wrote(batch.spooled);
    inbox.push(batch);
    notify();
  });
  worker.on('error', (error) => end(error.message));
  worker.on('exit', (code) => end(code === 0 ? undefined : `exit code ${code}`));

  const post = (message: ReaderMessage): void => {
    if (!stopped && !ended) worker.postMessage(message);
  };
  return {
    get failure() {
      return failure;
    },
    feed: (paths, remembered) => post({ kind: 'files', paths, remembered }),
    end: () => post({ kind: 'end' }),
    async next() {
      // Batches that arrived before the reader ended are used first; only then does its end count.
      while (inbox.length === 0 && !ended && !stopped) await new Promise<void>((resolve) => (wake = resolve));
      return inbox.shift() ?? 'ended';
    },
    use: (blob) => void used.push({ file, ...blob }),
    stop() {
      if (stopped) return;
      stopped = true;
      notify();
      worker.unref();
      spool.written(file, used, ended);
      // The descriptor goes only once the reader is gone: it writes through it.
      void worker.terminate().then(() => flusher.close());
    },
  };
}

/**
 * Flushes the spool file in the background every `flushBytes` written, so that most of its bytes
 * are on the disk before the store's own fsync makes them durable. Errors are not lost: that
 * fsync reports them.
 */
function backgroundFlush(fd: number, flushBytes: number): { wrote: (total: number) => void; close: () => void } {
  let flushedTo = 0;
  let pending = 0;
  let closing = false;
  const settle = (): void => {
    pending--;
    if (closing && pending === 0) fs.close(fd, () => undefined);
  };
  return {
    wrote(total) {
      if (total - flushedTo < flushBytes) return;
      flushedTo = total;
      pending++;
      fs.fdatasync(fd, settle);
    },
    close() {
      closing = true;
      if (pending === 0) fs.close(fd, () => undefined);
    },
  };
}
