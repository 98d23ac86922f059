import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AttachmentError, resourceByteLength, resourceBytes, resourceSha256, sha256Hex, type Resource } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentLimits, ContentSpool, FileContentCache, FileStamp, SpooledBlob } from '../handler.ts';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { createEventLoopPacer } from './event-loop-pacer.ts';
import { SETTLED_AFTER_MS } from './file-stamp.ts';
import type { FileToRead } from './read-file-resource.ts';
import { READER_WORKER_SOURCE } from './file-reader-worker.ts';
import { readFileResources, startFileReading, type ReaderTuning, type ReadFilesStats } from './read-file-resources.ts';
import { takeReaderThread, warmReaderThread } from './reader-threads.ts';
import { fileUri } from './workspace-path.ts';

let ws: TempWorkspace;
beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

async function filesOf(names: string[]): Promise<FileToRead[]> {
  return names.map((name) => {
    const realPath = path.join(ws.root, name);
    return { realPath, uri: fileUri(realPath), name, input: 'd/', label: `${name} (from d/)` };
  });
}

const IN_WORKER: Partial<ReaderTuning> = { parallelFrom: 1 };
const ON_ONE_THREAD: Partial<ReaderTuning> = { parallelFrom: Number.POSITIVE_INFINITY };

async function read(files: FileToRead[], tuning: Partial<ReaderTuning>, limits: Partial<AttachmentLimits> = {}, signal?: AbortSignal) {
  const stats: ReadFilesStats = { workerFiles: 0 };
  const seen: string[] = [];
  const ctx = { ...ws.ctx({ limits }), ...(signal === undefined ? {} : { signal }) };
  const resources = await readFileResources(files, ctx, { pace: createEventLoopPacer(signal, 0), onFile: (file) => seen.push(file.name), tuning, stats });
  return { resources, stats, seen };
}

/** Each resource with its digest computed afresh from a copy, so a wrong remembered digest shows. */
function withDigests(resources: Resource[]) {
  return resources.map((resource) => ({
    resource,
    remembered: [resourceSha256(resource), resourceByteLength(resource)],
    actual: [sha256Hex(resourceBytes({ ...resource })), resourceBytes({ ...resource }).byteLength],
  }));
}

describe('readFileResources', () => {
  it('reads in a worker exactly what one thread reads: text, binary, empty, NUL, invalid UTF-8, BOM, multi-byte', async () => {
    const contents: Record<string, string | Uint8Array> = {
      'a.ts': 'export const a = 1;\n',
      'b.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      'c.txt': '',
      'd.rs': new Uint8Array([0x61, 0x00, 0x62]),
      'e.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
      'f.md': '\ufeff# Título — 日本語 🦀\n',
      'g.pdf': '%PDF-1.4\n%%EOF\n',
    };
    for (const [name, content] of Object.entries(contents)) await ws.write(name, content);
    const files = await filesOf(Object.keys(contents));
    const parallel = await read(files, IN_WORKER);
    const serial = await read(files, ON_ONE_THREAD);
    expect(parallel.stats).toEqual({ workerFiles: 7 });
    expect(serial.stats).toEqual({ workerFiles: 0 });
    expect(parallel.resources).toEqual(serial.resources);
    expect(parallel.seen).toEqual(Object.keys(contents));
    for (const { remembered, actual } of withDigests(parallel.resources)) expect(remembered).toEqual(actual);
    expect(parallel.resources.map((resource) => ('text' in resource ? 'text' : 'blob'))).toEqual(['text', 'blob', 'text', 'blob', 'blob', 'text', 'blob']);
  });

  it('writes what a worker reads to the spool: the same resources, their bytes in the spool file, each file reported', async () => {
    const contents: Record<string, string | Uint8Array> = {
      'a.ts': 'export const a = 1;\n',
      'b.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      'c.txt': '',
      'f.md': '\ufeff# Título — 日本語 🦀\n',
      'big.txt': 'x'.repeat(40),
    };
    for (const [name, content] of Object.entries(contents)) await ws.write(name, content);
    const files = await filesOf(Object.keys(contents));
    const spool = fileSpool(path.join(ws.root, '.spool'));
    const stats: ReadFilesStats = { workerFiles: 0 };
    // One reader: one spool file. big.txt is over the limit and read on this thread, outside the spool.
    const ctx = { ...ws.ctx({ limits: { maxResourceBytes: 32, sizePolicy: 'truncate' } }), spool: spool.spool };
    const spooled = await readFileResources(files, ctx, { pace: createEventLoopPacer(undefined, 0), tuning: { parallelFrom: 1, batchFiles: 1, readers: 1 }, stats });
    expect(stats).toEqual({ workerFiles: 4, spooledFiles: 4 });
    expect(spool.reads()).toBe(1); // the PNG's blob; no text was loaded yet
    const serial = await read(files, ON_ONE_THREAD, { maxResourceBytes: 32, sizePolicy: 'truncate' });
    expect(spooled).toEqual(serial.resources);
    for (const { remembered, actual } of withDigests(spooled)) expect(remembered).toEqual(actual);
    // Every file the worker read is reported once, with its place in the spool file holding exactly its bytes.
    const reported = spool.reported();
    expect(new Set(reported.map((blob) => blob.file)).size).toBe(1);
    expect(reported.map((blob) => blob.sha256).sort()).toEqual(spooled.slice(0, 4).map((resource) => resourceSha256(resource)).sort());
    for (const blob of reported) {
      const bytes = (await fs.readFile(blob.file)).subarray(blob.offset, blob.offset + blob.size);
      expect(sha256Hex(bytes)).toBe(blob.sha256);
    }
  });

  it('gathers spooled bytes in the worker: files smaller and larger than its buffer, messages between writes, all in place', async () => {
    const names: string[] = [];
    for (let i = 0; i < 40; i++) {
      const name = `d/f${String(i).padStart(2, '0')}.txt`;
      // Every 7th file is larger than the worker's 100-byte buffer, which must then grow.
      await ws.write(name, `${i}:`.padEnd(i % 7 === 0 ? 450 + i : 10 + i, String.fromCharCode(97 + (i % 26))));
      names.push(name);
    }
    const files = await filesOf(names);
    const spool = fileSpool(path.join(ws.root, '.spool'));
    const ctx = { ...ws.ctx(), spool: spool.spool };
    const stats: ReadFilesStats = { workerFiles: 0 };
    const spooled = await readFileResources(files, ctx, { pace: createEventLoopPacer(undefined, 0), tuning: { parallelFrom: 1, batchBytes: 100, batchFiles: 3, readers: 1 }, stats });
    expect(stats).toEqual({ workerFiles: 40, spooledFiles: 40 });
    // Reported once the reader had ended: the store may end the file as a pack at once.
    expect(spool.done()).toEqual([true]);
    expect(spooled).toEqual((await read(files, ON_ONE_THREAD)).resources);
    // One spool file holding the files back to back, in order, each where its report says.
    const reported = spool.reported();
    expect(reported.map((blob) => blob.sha256)).toEqual(spooled.map((resource) => resourceSha256(resource)));
    const file = await fs.readFile(reported[0]!.file);
    expect(file.byteLength).toBe(reported.reduce((sum, blob) => sum + blob.size, 0));
    let at = 0;
    for (const [k, blob] of reported.entries()) {
      expect(blob.offset).toBe(at);
      expect(file.subarray(blob.offset, blob.offset + blob.size).toString()).toBe(readFileSync(files[k]!.realPath, 'utf8'));
      at += blob.size;
    }
  });

  it('hands the work to the reader thread started ahead of it, and reads everything anyway when that one is broken', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `d/f${String(i).padStart(2, '0')}.txt`);
    for (const [i, name] of names.entries()) await ws.write(name, `line ${i}\n`.repeat(i + 1));
    const files = await filesOf(names);
    const serial = (await read(files, ON_ONE_THREAD)).resources;
    for (const source of [READER_WORKER_SOURCE, 'throw new Error("no reader today")']) {
      ws.warnings.length = 0;
      warmReaderThread(source);
      const stats: ReadFilesStats = { workerFiles: 0 };
      const resources = await readFileResources(files, ws.ctx(), { pace: createEventLoopPacer(undefined, 0), tuning: { parallelFrom: 1 }, stats });
      expect(resources).toEqual(serial);
      // The good reader read everything; a broken one nothing, and this thread or a new worker did.
      if (source === READER_WORKER_SOURCE) expect(stats).toEqual({ workerFiles: 30 });
      else if (stats.workerFiles === 0) expect(ws.warnings).toEqual([expect.stringMatching(/^reading 30 files on one thread: the reader thread failed/)]);
      expect(takeReaderThread()).toBeUndefined();
    }
  });

  it('reads files fed while a walk goes on, and returns them in the order asked for', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `d/g${String(i).padStart(2, '0')}.txt`);
    for (const [i, name] of names.entries()) await ws.write(name, `${i}\n`.repeat(i + 2));
    const files = await filesOf(names);
    const serial = (await read(files, ON_ONE_THREAD)).resources;
    const stats: ReadFilesStats = { workerFiles: 0 };
    const seen: string[] = [];
    // One reader, so that the files come back in the order it was given them.
    const reading = startFileReading(ws.ctx(), { pace: createEventLoopPacer(undefined, 0), onFile: (file) => seen.push(file.name), tuning: { parallelFrom: 3, feedFiles: 2, readers: 1 }, stats });
    try {
      // Fed in three parts, out of order; the last two files are only named when finishing.
      reading.feed([files[5]!, files[0]!]);
      reading.feed([files[9]!]);
      reading.feed([files[3]!, files[1]!, files[2]!, files[4]!, files[6]!, files[7]!, files[8]!]);
      const resources = await reading.finish(files);
      expect(resources).toEqual(serial);
    } finally {
      reading.close();
    }
    expect(stats).toEqual({ workerFiles: 12 });
    expect(seen).toEqual(['5', '0', '9', '3', '1', '2', '4', '6', '7', '8', '10', '11'].map((i) => `d/g${i.padStart(2, '0')}.txt`));
  });

  it('reads no further ahead than the file limit while a walk feeds it, and everything when asked to finish', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `d/h${i}.txt`);
    for (const name of names) await ws.write(name, name);
    const files = await filesOf(names);
    const stats: ReadFilesStats = { workerFiles: 0 };
    const reading = startFileReading(ws.ctx({ limits: { maxFiles: 3 } }), { pace: createEventLoopPacer(undefined, 0), tuning: { parallelFrom: 1, feedFiles: 1 }, stats });
    try {
      reading.feed(files.slice(0, 3));
      reading.feed(files.slice(3));
      // Only a caller that ignores the limit finishes: the files past it are then read too.
      expect((await reading.finish()).map((resource) => resource.name)).toEqual(names);
    } finally {
      reading.close();
    }
    expect(stats.workerFiles).toBe(8);
  });

  it('shares the files between two readers: each read once, into its own spool file, all in order', async () => {
    const names: string[] = [];
    for (let i = 0; i < 300; i++) {
      const name = `t/f${String(i).padStart(3, '0')}.txt`;
      await ws.write(name, `${i}:`.padEnd(50 + (i % 37), String.fromCharCode(97 + (i % 26))));
      names.push(name);
    }
    const files = await filesOf(names);
    const spool = fileSpool(path.join(ws.root, '.spool'));
    const stats: ReadFilesStats = { workerFiles: 0 };
    const reading = startFileReading({ ...ws.ctx(), spool: spool.spool }, { pace: createEventLoopPacer(undefined, 0), tuning: { parallelFrom: 1, feedFiles: 16, batchFiles: 8, readers: 2 }, stats });
    let resources: Resource[];
    try {
      for (let from = 0; from < files.length; from += 50) reading.feed(files.slice(from, from + 50));
      resources = await reading.finish();
    } finally {
      reading.close();
    }
    expect(resources.map((resource) => resource.name)).toEqual(names);
    expect(resources).toEqual((await read(files, ON_ONE_THREAD)).resources);
    expect(stats).toEqual({ workerFiles: 300, spooledFiles: 300 });
    // Every file once, in whichever reader's spool file, holding exactly its bytes.
    const reported = spool.reported();
    expect(reported.map((blob) => blob.sha256).sort()).toEqual(resources.map((resource) => resourceSha256(resource)).sort());
    expect(new Set(reported.map((blob) => blob.file)).size).toBeLessThanOrEqual(2);
    for (const blob of reported) {
      const bytes = (await fs.readFile(blob.file)).subarray(blob.offset, blob.offset + blob.size);
      expect(sha256Hex(bytes)).toBe(blob.sha256);
    }
  });

  it('gives the reader paths relative to the working directory for the files under it, and the same resources', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `src/m${i}.ts`);
    for (const [i, name] of names.entries()) await ws.write(name, `export const m${i} = ${i};\n`);
    const outside = await tempWorkspace();
    try {
      await outside.write('far.ts', 'export const far = 1;\n');
      const files = [...(await filesOf(names)), { realPath: path.join(outside.root, 'far.ts'), uri: 'external:far', name: 'far.ts', input: 'x', label: 'far.ts' }];
      const serial = (await read(files, ON_ONE_THREAD)).resources;
      // The reader writes down the paths it is given before reading them.
      const log = path.join(ws.root, 'given.log');
      const logging = `{
        const { parentPort } = require('node:worker_threads');
        const write = (m) => {
          if (m.kind === 'files') require('node:fs').appendFileSync(${JSON.stringify(log)}, m.paths.join('\\n') + '\\n');
          if (m.kind === 'end') parentPort.off('message', write);
        };
        parentPort.on('message', write);
      }
      ${READER_WORKER_SOURCE}`;
      const before = process.cwd();
      process.chdir(ws.root);
      let inWorker: Awaited<ReturnType<typeof read>>;
      try {
        inWorker = await read(files, { ...IN_WORKER, workerSource: logging });
      } finally {
        process.chdir(before);
      }
      expect(inWorker.resources).toEqual(serial);
      expect(inWorker.stats.workerFiles).toBe(7);
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([...names, path.join(outside.root, 'far.ts')]);
    } finally {
      await outside.cleanup();
    }
  });

  it('keeps order across many small batches, files larger than a batch, and a full window', async () => {
    const names: string[] = [];
    for (let i = 0; i < 120; i++) {
      const name = `d/f${String(i).padStart(3, '0')}.txt`;
      // Every 10th file is larger than a whole batch, so it travels in a buffer of its own.
      await ws.write(name, `${i}:`.padEnd(i % 10 === 0 ? 5000 : 100 + i, String.fromCharCode(97 + (i % 26))));
      names.push(name);
    }
    const files = await filesOf(names);
    // 1 KiB batches and 2 in flight: the worker waits for the reader dozens of times.
    const parallel = await read(files, { parallelFrom: 1, batchBytes: 1024, window: 2, feedFiles: 7 });
    expect(parallel.stats.workerFiles).toBe(120);
    expect(parallel.resources.map((resource) => resource.name)).toEqual(names);
    expect(parallel.resources).toEqual((await read(files, ON_ONE_THREAD)).resources);
    for (const { remembered, actual } of withDigests(parallel.resources)) expect(remembered).toEqual(actual);
  });

  it('leaves files over the limit to the size policy on this thread: truncate, reject, ask', async () => {
    await ws.write('small.txt', 'abc');
    await ws.write('big.txt', 'abcdé€wxyz'); // 13 bytes
    const files = await filesOf(['small.txt', 'big.txt']);
    const truncated = await read(files, IN_WORKER, { maxResourceBytes: 8, sizePolicy: 'truncate' });
    expect(truncated.stats.workerFiles).toBe(1);
    expect(truncated.resources[1]).toMatchObject({ text: 'abcdé', description: expect.stringMatching(/^truncated: the first 6 of 13 bytes/) });
    expect(truncated.resources).toEqual((await read(files, ON_ONE_THREAD, { maxResourceBytes: 8, sizePolicy: 'truncate' })).resources);
    const rejected = await read(files, IN_WORKER, { maxResourceBytes: 8, sizePolicy: 'reject' }).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(AttachmentError);
    expect((rejected as AttachmentError).message).toMatch(/^big\.txt \(from d\/\) is 13 bytes, over the limit of 8 bytes/);
    // Under "allow" the worker reads everything.
    expect((await read(files, IN_WORKER, { maxResourceBytes: 8, sizePolicy: 'allow' })).stats.workerFiles).toBe(2);
  });

  it('gives the one-thread error for a file that vanished or is a FIFO', async () => {
    await ws.write('ok.txt', 'fine');
    execFileSync('mkfifo', [path.join(ws.root, 'pipe.txt')]);
    const fifo = await read(await filesOf(['ok.txt', 'pipe.txt']), IN_WORKER).catch((error: unknown) => error);
    expect((fifo as AttachmentError).message).toBe('pipe.txt (from d/) is not a regular file (a FIFO, socket or device); attach a regular file or directory');
    const gone = await read(await filesOf(['ok.txt', 'gone.txt']), IN_WORKER).catch((error: unknown) => error);
    const goneHere = await read(await filesOf(['ok.txt', 'gone.txt']), ON_ONE_THREAD).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(AttachmentError);
    expect((gone as AttachmentError).message).toBe((goneHere as AttachmentError).message);
  });

  it('reads everything on this thread, with one warning, when the worker fails', async () => {
    const names = ['a.txt', 'b.txt', 'c.txt'];
    for (const name of names) await ws.write(name, name);
    const files = await filesOf(names);
    for (const workerSource of ['throw new Error("reader broke")', 'process.exit(3)', 'syntax error here (']) {
      ws.warnings.length = 0;
      const broken = await read(files, { parallelFrom: 1, workerSource });
      expect(broken.resources).toEqual((await read(files, ON_ONE_THREAD)).resources);
      expect(broken.stats.workerFiles).toBe(0);
      expect(broken.stats.workerFailure).toBeDefined();
      expect(ws.warnings).toEqual([expect.stringMatching(/^reading 3 files on one thread: the reader thread failed \(.+\)$/)]);
    }
  });

  it('uses what a reader sent before it died and reads the rest on this thread', async () => {
    const names = ['a.txt', 'b.txt', 'c.txt', 'd.txt'];
    for (const name of names) await ws.write(name, name);
    const files = await filesOf(names);
    // The reader reads the first two files and ends the moment it is given more. Its buffers are
    // tiny, so each file is a batch of its own, sent once the next file needs the room: it sent a.txt.
    const dying = `let given = 0; require('node:worker_threads').parentPort.on('message', (m) => { if (m.kind === 'files' && ++given === 2) process.exit(7); }); ${READER_WORKER_SOURCE}`;
    const stats: ReadFilesStats = { workerFiles: 0 };
    const reading = startFileReading(ws.ctx(), { pace: createEventLoopPacer(undefined, 0), tuning: { parallelFrom: 1, feedFiles: 2, batchBytes: 1, workerSource: dying, readers: 1 }, stats });
    try {
      reading.feed(files.slice(0, 2));
      // The first files are read before the reader is given more.
      await new Promise((resolve) => setTimeout(resolve, 200));
      reading.feed(files.slice(2));
      expect(await reading.finish()).toEqual((await read(files, ON_ONE_THREAD)).resources);
    } finally {
      reading.close();
    }
    expect(ws.warnings).toEqual(['reading 3 files on one thread: the reader thread failed (exit code 7)']);
    expect(stats.workerFiles).toBe(1);
  });

  it('stops at once when resolution is aborted', async () => {
    const names: string[] = [];
    for (let i = 0; i < 50; i++) {
      names.push(`f${i}.txt`);
      await ws.write(`f${i}.txt`, 'x'.repeat(2000));
    }
    const controller = new AbortController();
    controller.abort();
    const error = await read(await filesOf(names), { parallelFrom: 1, batchBytes: 4096, window: 1 }, {}, controller.signal).catch((caught: unknown) => caught);
    expect((error as { exitCode?: number }).exitCode).toBe(130);
  });
});

describe('the file handler on a large directory', () => {
  it('reads it through the worker', async () => {
    const { createFileHandler } = await import('./file-handler.ts');
    for (let i = 0; i < 210; i++) await ws.write(`tree/f${String(i).padStart(3, '0')}.ts`, `export const v${i} = ${i};\n`);
    await fs.writeFile(path.join(ws.root, 'tree', '.gitignore'), 'f2*.ts\n');
    const resources = await createFileHandler().resolve(['tree/'], ws.ctx());
    // 210 files less the ten f20x.ts ignored: still over the worker threshold (200).
    expect(resources).toHaveLength(200);
    expect(ws.warnings).toEqual([]);
    expect(resources[0]).toMatchObject({ name: 'tree/f000.ts', text: 'export const v0 = 0;\n', mimeType: 'text/x-typescript' });
    for (const { remembered, actual } of withDigests(resources)) expect(remembered).toEqual(actual);
  });
});

/** A spool as the app keeps one (blob-spool.ts), in a plain directory: what readers report, and how often content is read back. */
function fileSpool(dir: string) {
  const reported: SpooledBlob[] = [];
  /** Per report, whether its writer had ended. */
  const done: boolean[] = [];
  let reads = 0;
  let made = 0;
  const spool: ContentSpool = {
    create() {
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `spool-${made++}`);
      writeFileSync(file, '');
      return file;
    },
    written(_file, blobs, ended) {
      reported.push(...blobs);
      done.push(ended);
    },
    read(blob) {
      reads++;
      return readFileSync(blob.file).subarray(blob.offset, blob.offset + blob.size);
    },
  };
  return { spool, reported: () => reported, done: () => done, reads: () => reads };
}

/** A content cache as the app keeps one, in memory: stamps by URI, bytes by sha256. */
function memoryContents() {
  const stamps = new Map<string, { stamp: FileStamp; sha256: string }>();
  const blobs = new Map<string, Uint8Array>();
  let loads = 0;
  const cache: FileContentCache = {
    rememberedStamp: (uri) => stamps.get(uri)?.stamp,
    lookup(uri, stamp) {
      const entry = stamps.get(uri);
      if (entry === undefined || JSON.stringify(entry.stamp) !== JSON.stringify(stamp)) return undefined;
      const bytes = blobs.get(entry.sha256);
      if (bytes === undefined) return undefined;
      return {
        sha256: entry.sha256,
        byteLength: bytes.byteLength,
        load: () => {
          loads++;
          return bytes;
        },
      };
    },
    remember(uri, stamp, digest) {
      stamps.set(uri, { stamp, sha256: digest.sha256 });
    },
  };
  /** What the app does after the turn: store the read resources' bytes. */
  const store = (resources: Resource[]) => {
    for (const resource of resources) blobs.set(resourceSha256(resource), new Uint8Array(resourceBytes(resource)));
  };
  return { cache, stamps, blobs, store, loads: () => loads };
}

describe('readFileResources with stored contents', () => {
  const later = () => Date.now() + SETTLED_AFTER_MS + 1000;

  async function readWith(files: FileToRead[], cache: FileContentCache, clock: () => number, tuning: Partial<ReaderTuning> = ON_ONE_THREAD) {
    const stats: ReadFilesStats = { workerFiles: 0 };
    const ctx = { ...ws.ctx(), fileContents: cache };
    const resources = await readFileResources(files, ctx, { pace: createEventLoopPacer(undefined, 0), tuning, stats, clock });
    return { resources, stats };
  }

  it('remembers whole UTF-8 files read after they settled, and uses their stored content unread next time', async () => {
    for (const tuning of [ON_ONE_THREAD, IN_WORKER]) {
      const contents = { 'a.ts': 'export const a = 1;\n', 'b.bin': new Uint8Array([0x61, 0x00]), 'c.md': '# Título 🦀\n', 'd.pdf': '%PDF-1.4\n' };
      for (const [name, content] of Object.entries(contents)) await ws.write(name, content);
      const files = await filesOf(Object.keys(contents));
      const memory = memoryContents();

      const first = await readWith(files, memory.cache, later, tuning);
      expect(first.stats.storedFiles).toBe(0);
      // Text only: a blob (NUL byte) and a binary format by name are read every time.
      expect([...memory.stamps.keys()].sort()).toEqual([files[0]!.uri, files[2]!.uri]);
      memory.store(first.resources);

      const second = await readWith(files, memory.cache, later, tuning);
      expect(second.stats.storedFiles).toBe(2);
      expect(second.resources.map((r) => r.uri)).toEqual(files.map((f) => f.uri));
      // Digests and sizes come from what was remembered: nothing is loaded for them.
      expect(second.resources.map((r) => [resourceSha256(r), resourceByteLength(r)])).toEqual(first.resources.map((r) => [resourceSha256(r), resourceByteLength(r)]));
      expect(memory.loads()).toBe(0);
      // The content, once asked for, is the stored snapshot, and matches its digest.
      expect(withDigests(second.resources).map(({ remembered, actual }) => [remembered, actual])).toEqual(
        withDigests(first.resources).map(({ actual }) => [actual, actual]),
      );
      expect(second.resources.map((r) => ('text' in r ? r.text : Buffer.from(r.blob).toString('hex')))).toEqual(
        first.resources.map((r) => ('text' in r ? r.text : Buffer.from(r.blob).toString('hex'))),
      );
      expect(memory.loads()).toBe(2); // once per stored file, however often its content is used
    }
  });

  it('reads a file again when its stamp changed, even to content of the same size', async () => {
    for (const tuning of [ON_ONE_THREAD, IN_WORKER]) {
      await ws.write('a.txt', 'one\n');
      await ws.write('b.txt', 'same\n');
      const files = await filesOf(['a.txt', 'b.txt']);
      const memory = memoryContents();
      memory.store((await readWith(files, memory.cache, later, tuning)).resources);
      await ws.write('a.txt', 'two\n');
      const { resources, stats } = await readWith(files, memory.cache, later, tuning);
      expect(stats.storedFiles).toBe(1);
      expect(resources.map((resource) => (resource as { text: string }).text)).toEqual(['two\n', 'same\n']);
      expect(memory.stamps.get(files[0]!.uri)?.sha256).toBe(sha256Hex('two\n'));
    }
  });

  it('does not remember a file changed too recently for its stamp to be trusted', async () => {
    await ws.write('a.txt', 'fresh\n');
    const memory = memoryContents();
    await readWith(await filesOf(['a.txt']), memory.cache, Date.now);
    expect(memory.stamps.size).toBe(0);
  });

  it('reads a file whose stored content is gone, and one over the size threshold', async () => {
    await ws.write('a.txt', 'kept\n');
    await ws.write('big.txt', 'x'.repeat(64));
    const files = await filesOf(['a.txt', 'big.txt']);
    const memory = memoryContents();
    memory.store((await readWith(files, memory.cache, later)).resources);
    memory.blobs.clear();
    expect((await readWith(files, memory.cache, later)).stats.storedFiles).toBe(0);

    memory.store((await readWith(files, memory.cache, later)).resources);
    const ctx = { ...ws.ctx({ limits: { maxResourceBytes: 16, sizePolicy: 'truncate' } }), fileContents: memory.cache };
    const stats: ReadFilesStats = { workerFiles: 0 };
    const resources = await readFileResources(files, ctx, { pace: createEventLoopPacer(undefined, 0), tuning: ON_ONE_THREAD, stats, clock: later });
    // big.txt goes through the size policy as if nothing were stored.
    expect(stats.storedFiles).toBe(1);
    expect(resources[1]!.description).toMatch(/^truncated: the first 16 of 64 bytes/);
  });
});
