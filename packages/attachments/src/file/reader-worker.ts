/*
 * The program of the reader thread (see reader-thread.ts). It runs as `eval` code — CommonJS, no
 * imports — so the bundle needs no separate worker file at run time. It only reads: it hands back
 * facts about each file (where its bytes went in the spool file, its sha256, whether it is UTF-8
 * text, its stamp), and the main thread makes resources of them, so the resource type never
 * reaches this file.
 */

/** How the reader is set up: the first message it is sent. */
export interface ReaderStart {
  kind: 'start';
  /** A file larger than this is not read: it comes back as `fallback` (the size policy decides). */
  maxBytes: number;
  /** The open spool file its bytes are written to, back to back from offset 0. */
  fd: number;
  /** Outcomes per message. */
  batchFiles: number;
  /** Bytes gathered before a write to the spool file (one write per file costs more than the copy). */
  batchBytes: number;
}

/** More files to read, numbered on from those of earlier messages (the first file is 0). */
export interface ReaderFiles {
  kind: 'files';
  /** Paths as the reader opens them (see `openablePath`). */
  paths: string[];
  /**
   * Per file, four numbers: the stamp (size, mtimeMs, ctimeMs, ino) under which its content is
   * known already, or NaN. Such a file is only `stat`ed, and not read while the stamp is the same.
   */
  remembered: Float64Array;
}

/** No more files: the reader sends what it holds and ends. */
export interface ReaderEnd {
  kind: 'end';
}

export type ReaderMessage = ReaderStart | ReaderFiles | ReaderEnd;

/**
 * One file's outcome. `fallback`: not read here (an error, not a regular file, over `maxBytes`):
 * the main thread reads it, so errors and the size policy are the same either way. `unchanged`:
 * its stamp is the one remembered.
 */
export type ReadEntry =
  | { index: number; kind: 'fallback' | 'unchanged' }
  | {
      index: number;
      kind: 'read';
      /** The bytes are `[offset, offset + length)` of the spool file. */
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

/** One message from the reader: outcomes in increasing order, all of whose bytes are in the spool file. */
export interface ReadBatch {
  entries: ReadEntry[];
  /** Bytes in the spool file so far. */
  spooled: number;
}

function readerWorker(): void {
  // `process.getBuiltinModule`, not `require`: bundlers rewrite `require` to helpers that do not
  // exist in eval code.
  const { parentPort } = process.getBuiltinModule('node:worker_threads');
  const fs = process.getBuiltinModule('node:fs');
  const crypto = process.getBuiltinModule('node:crypto');
  const { isUtf8 } = process.getBuiltinModule('node:buffer');

  const begin = ({ maxBytes, fd, batchFiles, batchBytes }: ReaderStart) => {
    const flags = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;
    const firstReadOfSize0 = 16 * 1024;
    const paths: string[] = [];
    const remembered: number[] = [];
    let next = 0;
    let view = Buffer.allocUnsafe(batchBytes);
    let used = 0;
    let spooled = 0;
    let entries: ReadEntry[] = [];

    /** Whether the spool file took no more bytes (a full disk): every file from then on is a fallback. */
    let broken = false;

    /**
     * Writes the gathered bytes after those written before. When the spool file cannot take them,
     * the files whose bytes they were become fallbacks (the main thread reads them; storing them
     * reports the full disk, once).
     */
    const flush = (): void => {
      if (!broken) {
        try {
          for (let written = 0; written < used; ) {
            const wrote = fs.writeSync(fd, view, written, used - written, spooled + written);
            if (wrote === 0) throw new Error('the spool file takes no more bytes');
            written += wrote;
          }
          spooled += used;
          used = 0;
          return;
        } catch {
          broken = true;
        }
      }
      entries = entries.map((entry) => (entry.kind === 'read' && entry.offset >= spooled ? { index: entry.index, kind: 'fallback' } : entry));
      used = 0;
    };

    const send = (): void => {
      if (entries.length === 0) return;
      flush();
      parentPort!.postMessage({ entries, spooled } satisfies ReadBatch);
      entries = [];
    };

    /** Keeps the `length` bytes of the file being read at `used` and makes room for `size` from there. */
    const grow = (length: number, size: number): void => {
      if (used + size <= view.length) return;
      const partial = Buffer.from(view.subarray(used, used + length));
      flush();
      if (size > view.length) view = Buffer.allocUnsafe(size);
      partial.copy(view, 0);
    };

    /** Makes room for `size` more bytes in the gathering buffer. */
    const room = (size: number): void => {
      if (used + size <= view.length) return;
      flush();
      if (size > view.length) view = Buffer.allocUnsafe(size);
    };

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

    const readFile = (index: number): void => {
      const filePath = paths[index]!;
      if (broken) {
        entries.push({ index, kind: 'fallback' });
        return;
      }
      if (unchanged(filePath, index * 4)) {
        entries.push({ index, kind: 'unchanged' });
        return;
      }
      let file: number;
      try {
        // Non-blocking, so a FIFO put in a file's place cannot hang the open.
        file = fs.openSync(filePath, flags);
      } catch {
        entries.push({ index, kind: 'fallback' });
        return;
      }
      try {
        const stats = fs.fstatSync(file);
        if (!stats.isFile() || stats.size > maxBytes) {
          entries.push({ index, kind: 'fallback' });
          return;
        }
        // The stat size is a hint (files of /proc say 0): read to the end, at most one byte past
        // `maxBytes`, as readUpTo in read-file-resource.ts does.
        const size = stats.size;
        const cap = maxBytes + 1;
        let capacity = Math.min(cap, size > 0 ? size + 1 : firstReadOfSize0);
        room(capacity);
        let length = 0;
        while (length < cap) {
          if (length === capacity) {
            capacity = Math.min(cap, capacity * 2);
            grow(length, capacity);
          }
          const asked = capacity - length;
          const bytesRead = fs.readSync(file, view, used + length, asked, null);
          if (bytesRead === 0) break;
          length += bytesRead;
          if (size > 0 && length >= size && bytesRead < asked) break;
        }
        if (length > maxBytes) {
          entries.push({ index, kind: 'fallback' });
          return;
        }
        const bytes = view.subarray(used, used + length);
        const sha256 = crypto.hash('sha256', bytes, 'hex');
        const utf8 = bytes.indexOf(0) === -1 && isUtf8(bytes);
        const offset = spooled + used;
        used += length;
        entries.push({ index, kind: 'read', offset, length, size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino, sha256, utf8 });
      } catch {
        entries.push({ index, kind: 'fallback' });
      } finally {
        fs.closeSync(file);
      }
    };

    const read = (message: ReaderFiles): void => {
      for (const filePath of message.paths) paths.push(filePath);
      for (const number of message.remembered) remembered.push(number);
      while (next < paths.length) {
        readFile(next++);
        if (entries.length >= batchFiles) send();
      }
    };

    return { read, end: send };
  };

  // Work comes as messages, so a reader started before its files are known reads each batch of
  // them as the walk finds it.
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

/** The reader's source, for `new Worker(READER_WORKER_SOURCE, { eval: true })`. */
export const READER_WORKER_SOURCE = `(${readerWorker.toString()})();`;
