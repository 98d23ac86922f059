/*
 * The program of the worker thread that reads a tree of files (see `readFileResources`). It runs
 * as `eval` code — CommonJS, no imports — so the bundle needs no separate worker file to find at
 * run time; it shares nothing with the rest of the package but the message shapes below, and
 * names no identifier from outside its own body.
 */

/** How the worker is set up: the first message it is sent. */
export interface ReaderStart {
  kind: 'start';
  /** A file larger than this is not read: it comes back as `fallback` (the size policy decides). */
  maxBytes: number;
  /**
   * Where the bytes go. `buffers`: packed into buffers of about `batchBytes`, one message each,
   * transferred to the reader. `spool`: written back to back into the open file `fd` (a
   * `ContentSpool` file) from offset 0, gathered in a buffer of `batchBytes` first; messages then
   * carry no bytes, only where they lie, one message per `batchFiles` files.
   */
  output: { to: 'buffers'; batchBytes: number; window: number } | { to: 'spool'; fd: number; batchFiles: number; batchBytes: number };
  /** Int32Array over it: [0] batches the reader has consumed (it adds and notifies). */
  control: SharedArrayBuffer;
  /**
   * Int32Array over it, shared by every reader of the same files: [0] the number of the next file
   * nobody has taken. A reader takes a file by adding one, so each file is read by exactly one of
   * them, and the one with time to spare reads more.
   */
  claims: SharedArrayBuffer;
}

/**
 * Files to read, after those of earlier messages: they are numbered on from them (the first file
 * of the first message is 0). Every reader is sent every file; each reads those it takes
 * (`ReaderStart.claims`), in increasing order.
 */
export interface ReaderFiles {
  kind: 'files';
  /** Real paths; those under the working directory relative to it (reader threads share it). */
  paths: string[];
  /**
   * Per file, four numbers: the stamp (size, mtimeMs, ctimeMs, ino) under which its content is
   * stored already, or NaN. Such a file is `stat`ed first and not read when the stamp is the same.
   */
  remembered: Float64Array;
}

/** No more files: the worker sends what it holds and ends. */
export interface ReaderEnd {
  kind: 'end';
}

/** What the worker is sent: one `start`, any number of `files`, one `end`. */
export type ReaderMessage = ReaderStart | ReaderFiles | ReaderEnd;

/**
 * One file's outcome. `fallback`: not read here (error, not a regular file, over `maxBytes`);
 * `unchanged`: its stamp is the one remembered, so it was not read.
 */
export type ReadEntry =
  | { index: number; kind: 'fallback' | 'unchanged' }
  | {
      index: number;
      kind: 'read';
      /** The bytes are `[offset, offset + length)` of the batch's buffer, or of the spool file. */
      offset: number;
      length: number;
      /** What fstat said before the read: the file's stamp. */
      size: number;
      mtimeMs: number;
      ctimeMs: number;
      ino: number;
      sha256: string;
      /** UTF-8 without a NUL byte. */
      utf8: boolean;
    };

/** One message: entries in increasing order and, when reading into buffers, the buffer holding their bytes (transferred, not copied). */
export interface ReadBatch {
  entries: ReadEntry[];
  buffer?: ArrayBuffer;
  /** Bytes written to the spool file so far (spool output). */
  spooled?: number;
}

function readerWorker(): void {
  // `process.getBuiltinModule`, not `require`: bundlers rewrite `require` to helpers that do not
  // exist in eval code.
  const { parentPort } = process.getBuiltinModule('node:worker_threads');
  // Loaded before any work arrives: a reader started ahead of time is ready when it does.
  const fs = process.getBuiltinModule('node:fs');
  const crypto = process.getBuiltinModule('node:crypto');
  // One call per file (Node 20.12+, and jp needs 20.19): a Hash object per small file costs more than the hashing.
  const sha256Hex = (bytes: Uint8Array) => crypto.hash('sha256', bytes, 'hex');
  const { isUtf8 } = process.getBuiltinModule('node:buffer');

  /** Sets the worker up for the files to come; returns what reads them and what ends the work. */
  const begin = ({ maxBytes, output, control, claims }: ReaderStart) => {
    const consumed = new Int32Array(control);
    const next = new Int32Array(claims);
    const flags = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;
    const spool = output.to === 'spool' ? output : undefined;
    const batchBytes = output.batchBytes;
    const window = output.to === 'buffers' ? output.window : 0;

    /** Every file given so far, and four stamp numbers per file (`ReaderFiles.remembered`). */
    const paths: string[] = [];
    const remembered: number[] = [];
    /** A file taken whose path has not arrived yet (another reader was given it first). */
    let taken: number | undefined;
    let sent = 0;
    // Buffers: a new one per batch, handed over. Spool: one buffer, written to the file whenever it
    // is full (a write per file cost more than the copy), and before each message.
    let buffer = new ArrayBuffer(batchBytes);
    let view = Buffer.from(buffer);
    let used = 0;
    let spooled = 0;
    let entries: ReadEntry[] = [];

    const send = (): void => {
      if (entries.length === 0) return;
      if (spool !== undefined) {
        // Every entry sent lies in the file already.
        flush();
        parentPort!.postMessage({ entries, spooled } satisfies ReadBatch);
        entries = [];
        return;
      }
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

    /** Writes the spool buffer's bytes to the spool file, after those written before. */
    const flush = (): void => {
      if (spool === undefined || used === 0) return;
      for (let written = 0; written < used; ) written += fs.writeSync(spool.fd, view, written, used - written, spooled + written);
      spooled += used;
      used = 0;
    };

    /** Makes room for `size` bytes at `used`: a new batch, or a larger buffer. */
    const room = (size: number): void => {
      if (used + size <= view.length) return;
      if (spool !== undefined) flush();
      else send();
      if (size > view.length) {
        buffer = new ArrayBuffer(Math.max(size, view.length * 2));
        view = Buffer.from(buffer);
      }
    };

    /** Whether the file still has the stamp its stored content was remembered with (`remembered[at…at+3]`). */
    const unchanged = (filePath: string, at: number): boolean => {
      if (Number.isNaN(remembered[at])) return false;
      try {
        const stats = fs.statSync(filePath, { throwIfNoEntry: false });
        return (
          stats !== undefined &&
          stats.isFile() &&
          stats.size === remembered[at] &&
          stats.mtimeMs === remembered[at + 1] &&
          stats.ctimeMs === remembered[at + 2] &&
          stats.ino === remembered[at + 3]
        );
      } catch {
        return false;
      }
    };

    /** Reads file `index`, adding its outcome to the batch. */
    const readFile = (index: number): void => {
      const filePath = paths[index]!;
      if (unchanged(filePath, index * 4)) {
        entries.push({ index, kind: 'unchanged' });
        return;
      }
      let fd: number;
      try {
        // Non-blocking, so a FIFO put in a file's place cannot hang the open.
        fd = fs.openSync(filePath, flags);
      } catch {
        entries.push({ index, kind: 'fallback' });
        return;
      }
      try {
        const stats = fs.fstatSync(fd);
        if (!stats.isFile() || stats.size > maxBytes) {
          entries.push({ index, kind: 'fallback' });
          return;
        }
        const size = stats.size;
        room(size);
        let length = 0;
        while (length < size) {
          const bytesRead = fs.readSync(fd, view, used + length, size - length, length);
          if (bytesRead === 0) break; // shrank meanwhile: keep what there is
          length += bytesRead;
        }
        const bytes = view.subarray(used, used + length);
        const sha256 = sha256Hex(bytes);
        const utf8 = bytes.indexOf(0) === -1 && isUtf8(bytes);
        // In the spool, the bytes will lie after those written and those buffered before them.
        const offset = spool === undefined ? used : spooled + used;
        used += length;
        entries.push({ index, kind: 'read', offset, length, size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino, sha256, utf8 });
      } catch {
        entries.push({ index, kind: 'fallback' });
      } finally {
        fs.closeSync(fd);
      }
    };

    /** Takes in one message's files, and reads every file it can take whose path it has. */
    const read = (message: ReaderFiles): void => {
      for (const filePath of message.paths) paths.push(filePath);
      for (const number of message.remembered) remembered.push(number);
      for (;;) {
        taken ??= Atomics.add(next, 0, 1);
        if (taken >= paths.length) return; // its path is in a message still to come
        readFile(taken);
        taken = undefined;
        // Spool output: a message per `batchFiles` outcomes (they carry no bytes).
        if (spool !== undefined && entries.length >= spool.batchFiles) send();
      }
    };

    return { read, end: send };
  };

  // Work comes as messages, so a reader started ahead of its work (at start-up, or while a walk
  // runs) is booted when the first files arrive, and reads each batch of them as the walk finds it.
  let work: ReturnType<typeof begin> | undefined;
  const receive = (message: ReaderMessage): void => {
    if (message.kind === 'start') work = begin(message);
    else if (message.kind === 'files') work!.read(message);
    else {
      work?.end();
      // Nothing keeps the thread alive now: it ends once the messages above are on their way.
      parentPort!.off('message', receive);
    }
  };
  parentPort!.on('message', receive);
}

/** The worker's source, for `new Worker(READER_WORKER_SOURCE, { eval: true })`; its work comes as `ReaderMessage`s. */
export const READER_WORKER_SOURCE = `(${readerWorker.toString()})();`;
