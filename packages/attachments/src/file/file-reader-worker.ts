/*
 * The program of the worker thread that reads a tree of files (see `readFileResources`). It runs
 * as `eval` code — CommonJS, no imports — so the bundle needs no separate worker file to find at
 * run time; it shares nothing with the rest of the package but the message shapes below, and
 * names no identifier from outside its own body.
 */

/** What the worker is given. */
export interface ReaderWorkerData {
  /** Real paths of the files to read, in the order their results must come back. */
  paths: string[];
  /** A file larger than this is not read: it comes back as `fallback` (the size policy decides). */
  maxBytes: number;
  /** Files are packed into buffers of about this size, one message each. */
  batchBytes: number;
  /** At most this many batches are in flight; the worker waits for the reader to catch up. */
  window: number;
  /** Int32Array over it: [0] batches the reader has consumed (it adds and notifies). */
  control: SharedArrayBuffer;
}

/** One file's outcome. `fallback`: not read here (error, not a regular file, over `maxBytes`). */
export type ReadEntry =
  | { index: number; fallback: true }
  | {
      index: number;
      fallback?: undefined;
      /** The bytes are `buffer[offset, offset + length)`; `size` is what fstat said. */
      offset: number;
      length: number;
      size: number;
      sha256: string;
      /** UTF-8 without a NUL byte. */
      utf8: boolean;
    };

/** One message: entries in path order and the buffer holding their bytes (transferred, not copied). */
export interface ReadBatch {
  entries: ReadEntry[];
  buffer: ArrayBuffer;
}

function readerWorker(): void {
  // `process.getBuiltinModule`, not `require`: bundlers rewrite `require` to helpers that do not
  // exist in eval code.
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  const fs = process.getBuiltinModule('node:fs');
  const { createHash } = process.getBuiltinModule('node:crypto');
  const { isUtf8 } = process.getBuiltinModule('node:buffer');
  const { paths, maxBytes, batchBytes, window, control } = workerData as ReaderWorkerData;
  const consumed = new Int32Array(control);
  const flags = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

  let sent = 0;
  let buffer = new ArrayBuffer(batchBytes);
  let view = Buffer.from(buffer);
  let used = 0;
  let entries: ReadEntry[] = [];

  const send = (): void => {
    if (entries.length === 0) return;
    parentPort!.postMessage({ entries, buffer } satisfies ReadBatch, [buffer]);
    sent++;
    // Back-pressure: never more than `window` batches waiting in the reader's queue.
    for (let seen = Atomics.load(consumed, 0); sent - seen >= window; seen = Atomics.load(consumed, 0)) {
      Atomics.wait(consumed, 0, seen, 1000);
    }
    buffer = new ArrayBuffer(batchBytes);
    view = Buffer.from(buffer);
    used = 0;
    entries = [];
  };

  for (let index = 0; index < paths.length; index++) {
    let fd: number;
    try {
      // Non-blocking, so a FIFO put in a file's place cannot hang the open.
      fd = fs.openSync(paths[index]!, flags);
    } catch {
      entries.push({ index, fallback: true });
      continue;
    }
    try {
      const stats = fs.fstatSync(fd);
      if (!stats.isFile() || stats.size > maxBytes) {
        entries.push({ index, fallback: true });
        continue;
      }
      const size = stats.size;
      if (used + size > view.length) {
        send();
        if (size > view.length) {
          buffer = new ArrayBuffer(size);
          view = Buffer.from(buffer);
        }
      }
      let length = 0;
      while (length < size) {
        const bytesRead = fs.readSync(fd, view, used + length, size - length, length);
        if (bytesRead === 0) break; // shrank meanwhile: keep what there is
        length += bytesRead;
      }
      const bytes = view.subarray(used, used + length);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      entries.push({ index, offset: used, length, size, sha256, utf8: bytes.indexOf(0) === -1 && isUtf8(bytes) });
      used += length;
    } catch {
      entries.push({ index, fallback: true });
    } finally {
      fs.closeSync(fd);
    }
  }
  send();
}

/** The worker's source, for `new Worker(READER_WORKER_SOURCE, { eval: true, workerData })`. */
export const READER_WORKER_SOURCE = `(${readerWorker.toString()})();`;
