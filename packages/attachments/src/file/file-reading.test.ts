import { execFileSync } from 'node:child_process';
import { hash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AttachmentError, isRefResource, JpError, resourceBytes, type Resource } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttachmentLimits, FileContentCache, FileStamp } from '../handler.ts';
import { memoryFileContents } from '../test-support/memory-file-contents.ts';
import { attachmentError, rejectionOf } from '../test-support/rejection.ts';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { testSpool, type TestSpool } from '../test-support/test-spool.ts';
import { createEventLoopPacer } from './event-loop-pacer.ts';
import { createFileHandler } from './file-handler.ts';
import { startFileReading, type ReadFilesOptions, type ReadFilesStats } from './file-reading.ts';
import { SETTLED_AFTER_MS } from './file-stamp.ts';
import type { FileToRead } from './read-file-resource.ts';
import { READER_WORKER_SOURCE } from './reader-worker.ts';
import { fileUri } from './workspace-path.ts';

let ws: TempWorkspace;
let spool: TestSpool;
beforeEach(async () => {
  ws = await tempWorkspace();
  // Under .jp/, which no walk enters.
  spool = testSpool(path.join(ws.root, '.jp', 'spool'));
});
afterEach(async () => {
  await ws.cleanup();
});

/** Workspace files as a walk of `d/` would hand them to a reading. */
function filesOf(names: readonly string[]): FileToRead[] {
  return names.map((name) => {
    const realPath = path.join(ws.root, name);
    return { realPath, uri: fileUri(realPath), name, input: 'd/', label: `${name} (from d/)` };
  });
}

/** The reader thread reads every file; or none does, and this thread reads them all. */
const BY_READER = { from: 1 };
const ON_THIS_THREAD = { from: Number.POSITIVE_INFINITY };

interface ReadSetup {
  reader?: ReadFilesOptions['reader'];
  limits?: Partial<AttachmentLimits>;
  signal?: AbortSignal;
  fileContents?: FileContentCache;
  clock?: () => number;
}

/** Feeds `files` to a reading with the test spool, as a walk would, and finishes it. */
async function read(files: readonly FileToRead[], setup: ReadSetup = {}) {
  const stats: ReadFilesStats = { readerFiles: 0, knownFiles: 0 };
  const seen: string[] = [];
  const ctx = { ...ws.ctx({ limits: setup.limits }), spool, fileContents: setup.fileContents, signal: setup.signal };
  const reading = startFileReading(ctx, {
    pace: createEventLoopPacer(setup.signal),
    onFile: (file) => seen.push(file.name),
    reader: setup.reader,
    stats,
    clock: setup.clock,
  });
  try {
    reading.feed(files);
    return { resources: await reading.finish(), stats, seen };
  } finally {
    reading.close();
  }
}

const sha256 = (bytes: Uint8Array | string) => hash('sha256', bytes, 'hex');
const fileBytes = (file: FileToRead) => new Uint8Array(readFileSync(file.realPath));

/** The digest of a resource's content, wherever the content is. */
const digestOf = (resource: Resource) => (isRefResource(resource) ? resource.ref.sha256 : sha256(resourceBytes(resource)));

// The first 8 bytes of every PNG file.
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Files of every kind a tree holds, with the encoding their content gets. */
const MIXED: ReadonlyArray<[name: string, content: string | Uint8Array, encoding: 'text' | 'binary']> = [
  ['a.ts', 'export const a = 1;\n', 'text'],
  ['b.png', PNG, 'binary'],
  ['c.txt', '', 'text'],
  ['d.rs', new Uint8Array([0x61, 0x00, 0x62]), 'binary'], // a NUL byte
  ['e.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'binary'], // Latin-1, not UTF-8
  ['f.md', '\ufeff# Título — 日本語 🦀\n', 'text'],
  ['g.pdf', '%PDF-1.4\n%%EOF\n', 'binary'], // ASCII, but a binary format by name
  ['h.png', 'not really a png', 'binary'],
];

async function writeMixed(): Promise<FileToRead[]> {
  for (const [name, content] of MIXED) await ws.write(name, content);
  return filesOf(MIXED.map(([name]) => name));
}

describe('startFileReading with a reader thread', () => {
  it("refers to what the reader spooled: each file's sha256, size and encoding, and its bytes in the spool file", async () => {
    const files = await writeMixed();
    const { resources, stats, seen } = await read(files, { reader: BY_READER });
    expect(stats).toEqual({ readerFiles: MIXED.length, knownFiles: 0 });
    expect(seen).toEqual(MIXED.map(([name]) => name));
    expect(resources.map((resource) => (isRefResource(resource) ? resource.ref : resource))).toEqual(
      files.map((file, k) => ({ sha256: sha256(fileBytes(file)), size: fileBytes(file).byteLength, encoding: MIXED[k]![2] })),
    );
    for (const [k, resource] of resources.entries()) expect(spool.read(digestOf(resource))).toEqual(fileBytes(files[k]!));
    // One reader, one spool file, reported once its writer had ended.
    expect(spool.files).toHaveLength(1);
    expect(spool.reports.map(({ file, done }) => ({ file, done }))).toEqual([{ file: spool.files[0], done: true }]);
  });

  it('makes the same resources in the same order as a read on this thread, apart from where the content is', async () => {
    const files = await writeMixed();
    const byReader = await read(files, { reader: BY_READER });
    const here = await read(files, { reader: ON_THIS_THREAD });
    expect(here.stats.readerFiles).toBe(0);
    expect(here.resources.filter(isRefResource)).toEqual([]);
    expect(byReader.resources.map(spool.load)).toEqual(here.resources);
  });

  it('writes the files back to back into one spool file, whatever its buffer and batch sizes', async () => {
    const names: string[] = [];
    for (let i = 0; i < 40; i++) {
      const name = `d/f${String(i).padStart(2, '0')}.txt`;
      // Every 7th file is larger than the reader's 100-byte buffer, which must then grow.
      await ws.write(name, `${i}:`.padEnd(i % 7 === 0 ? 450 + i : 10 + i, String.fromCharCode(97 + (i % 26))));
      names.push(name);
    }
    const files = filesOf(names);
    const { resources, stats } = await read(files, { reader: { from: 1, batchBytes: 100, batchFiles: 3 } });
    expect(stats.readerFiles).toBe(40);
    const [report, ...more] = spool.reports;
    expect(more).toEqual([]);
    expect(report!.blobs.map((blob) => blob.sha256)).toEqual(resources.map(digestOf));
    const whole = readFileSync(report!.file);
    expect(whole.byteLength).toBe(report!.blobs.reduce((sum, blob) => sum + blob.size, 0));
    let at = 0;
    for (const [k, blob] of report!.blobs.entries()) {
      expect(blob.offset).toBe(at);
      expect(new Uint8Array(whole.subarray(blob.offset, blob.offset + blob.size))).toEqual(fileBytes(files[k]!));
      at += blob.size;
    }
  });

  it('reads files fed while a walk goes on, and returns them in the order asked for', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `d/g${String(i).padStart(2, '0')}.txt`);
    for (const [i, name] of names.entries()) await ws.write(name, `${i}\n`.repeat(i + 2));
    const files = filesOf(names);
    const stats: ReadFilesStats = { readerFiles: 0, knownFiles: 0 };
    const seen: string[] = [];
    const reading = startFileReading({ ...ws.ctx(), spool }, { pace: createEventLoopPacer(), onFile: (file) => seen.push(file.name), reader: { from: 3 }, stats });
    let resources: Resource[];
    try {
      // Fed in three parts, out of order; the last two files are named only when finishing.
      reading.feed([files[5]!, files[0]!]);
      reading.feed([files[9]!]);
      reading.feed([files[3]!, files[1]!, files[2]!, files[4]!, files[6]!, files[7]!, files[8]!]);
      resources = await reading.finish(files);
    } finally {
      reading.close();
    }
    expect(stats.readerFiles).toBe(12);
    expect(seen).toEqual([5, 0, 9, 3, 1, 2, 4, 6, 7, 8, 10, 11].map((i) => names[i]));
    expect(resources.map(spool.load)).toEqual((await read(files, { reader: ON_THIS_THREAD })).resources);
  });

  it('hands the reader no more files than the file limit while a walk feeds it, and every file once finished', async () => {
    const names = Array.from({ length: 70 }, (_, i) => `d/h${String(i).padStart(2, '0')}.txt`);
    for (const name of names) await ws.write(name, name);
    const files = filesOf(names);
    const given = async (maxFiles: number): Promise<number[]> => {
      const log = path.join(ws.outside, `given-${maxFiles}.log`);
      const reading = startFileReading({ ...ws.ctx({ limits: { maxFiles } }), spool }, { pace: createEventLoopPacer(), reader: { from: 1, source: loggingReader(log) } });
      try {
        // 64 files make a message to the reader.
        reading.feed(files.slice(0, 64));
        reading.feed(files.slice(64));
        expect((await reading.finish()).map((resource) => resource.name)).toEqual(names);
      } finally {
        reading.close();
      }
      return readFileSync(log, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as string[]).length);
    };
    expect(await given(1000)).toEqual([64, 6]);
    // Past the limit the walk's expansion will be refused: only a caller that finishes anyway has them read.
    expect(await given(3)).toEqual([70]);
  });

  it('gives the reader paths relative to the working directory for the files under it', async () => {
    const names = Array.from({ length: 3 }, (_, i) => `src/m${i}.ts`);
    for (const [i, name] of names.entries()) await ws.write(name, `export const m${i} = ${i};\n`);
    const far = path.join(ws.outside, 'far.ts');
    await fs.writeFile(far, 'export const far = 1;\n');
    const files = [...filesOf(names), { realPath: far, uri: 'external:far', name: 'far.ts', input: far, label: far }];
    const log = path.join(ws.outside, 'given.log');
    const before = process.cwd();
    process.chdir(ws.root);
    let resources: Resource[];
    try {
      resources = (await read(files, { reader: { from: 1, source: loggingReader(log) } })).resources;
    } finally {
      process.chdir(before);
    }
    expect(readFileSync(log, 'utf8').trim().split('\n').flatMap((line) => JSON.parse(line) as string[])).toEqual([...names, far]);
    expect(resources.map(spool.load)).toEqual((await read(files, { reader: ON_THIS_THREAD })).resources);
  });
});

describe('startFileReading, what the reader leaves to this thread', () => {
  it('leaves a file over the size limit to the size policy: truncated, rejected, or read whole under "allow"', async () => {
    await ws.write('small.txt', 'abc');
    await ws.write('big.txt', 'abcdé€wxyz'); // 13 bytes
    const files = filesOf(['small.txt', 'big.txt']);
    const truncated = await read(files, { reader: BY_READER, limits: { maxResourceBytes: 8, sizePolicy: 'truncate' } });
    expect(truncated.stats.readerFiles).toBe(1);
    expect(truncated.resources[0]).toMatchObject({ ref: { sha256: sha256('abc'), size: 3, encoding: 'text' } });
    expect(truncated.resources[1]).toEqual({
      uri: files[1]!.uri,
      name: 'big.txt',
      mimeType: 'text/plain',
      text: 'abcdé',
      description: 'truncated: the first 6 of 13 bytes (conversation.attachment.size_policy is "truncate", limit 8 bytes)',
    });

    const rejected = await attachmentError(read(files, { reader: BY_READER, limits: { maxResourceBytes: 8, sizePolicy: 'reject' } }));
    expect(rejected.message).toMatch(/^big\.txt \(from d\/\) is 13 bytes, over the limit of 8 bytes/);
    expect(rejected.attachment).toBe('d/');

    const allowed = await read(files, { reader: BY_READER, limits: { maxResourceBytes: 8, sizePolicy: 'allow' } });
    expect(allowed.stats.readerFiles).toBe(2);
    expect(spool.load(allowed.resources[1]!)).toMatchObject({ text: 'abcdé€wxyz' });
  });

  it('gives the error of a read on this thread for a file that vanished or is a FIFO', async () => {
    await ws.write('ok.txt', 'fine');
    execFileSync('mkfifo', [path.join(ws.root, 'pipe.txt')]);
    for (const name of ['pipe.txt', 'gone.txt']) {
      const files = filesOf(['ok.txt', name]);
      const byReader = await attachmentError(read(files, { reader: BY_READER }));
      const here = await attachmentError(read(files, { reader: ON_THIS_THREAD }));
      expect([byReader.code, byReader.message]).toEqual([here.code, here.message]);
    }
    const fifo = await attachmentError(read(filesOf(['pipe.txt']), { reader: BY_READER }));
    expect(fifo.message).toBe('pipe.txt (from d/) is not a regular file (a FIFO, socket or device); attach a regular file or directory');
  });

  it('reads files that say they are empty to their end, on either thread (/proc)', async () => {
    await ws.write('ok.txt', 'fine');
    const proc = (name: string): FileToRead => ({ realPath: `/proc/${name}`, uri: `external:proc/${name}`, name, input: 'd/', label: `/proc/${name} (from d/)` });
    const files = [...filesOf(['ok.txt']), proc('cpuinfo'), proc('meminfo'), proc('self/status')];
    expect(statSync('/proc/cpuinfo').size).toBe(0);
    for (const reader of [BY_READER, ON_THIS_THREAD]) {
      const { resources, stats } = await read(files, { reader, limits: { maxResourceBytes: 1024 * 1024 } });
      expect(stats.readerFiles).toBe(reader === BY_READER ? 4 : 0);
      const texts = resources.map((resource) => new TextDecoder().decode(resourceBytes(spool.load(resource))));
      expect(texts[0]).toBe('fine');
      expect(texts[1]).toMatch(/^processor\s*:/m);
      expect(texts[2]).toMatch(/^MemTotal:/);
      expect(texts[3]).toMatch(/^Name:/);
    }
  });

  it('grows its buffer for a file of stat size 0 larger than the first read, also past a small batch buffer', async () => {
    const smaps: FileToRead = { realPath: '/proc/self/smaps', uri: 'external:proc/smaps', name: 'smaps', input: 'd/', label: 'smaps' };
    await ws.write('ok.txt', 'fine');
    const { resources, stats } = await read([...filesOf(['ok.txt']), smaps], { reader: { from: 1, batchBytes: 1024 }, limits: { maxResourceBytes: 16 * 1024 * 1024 } });
    expect(stats.readerFiles).toBe(2);
    expect(new TextDecoder().decode(resourceBytes(spool.load(resources[0]!)))).toBe('fine');
    const text = new TextDecoder().decode(resourceBytes(spool.load(resources[1]!)));
    expect(text.length).toBeGreaterThan(64 * 1024);
    expect(text).toMatch(/^[0-9a-f]+-[0-9a-f]+ /);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('puts a file holding more than its stat size said to the size policy, reading one byte past the limit', async () => {
    const cpuinfo: FileToRead = { realPath: '/proc/cpuinfo', uri: 'external:proc/cpuinfo', name: 'cpuinfo', input: 'd/', label: 'cpuinfo (from d/)' };
    for (const reader of [BY_READER, ON_THIS_THREAD]) {
      const rejected = await attachmentError(read([cpuinfo], { reader, limits: { maxResourceBytes: 64, sizePolicy: 'reject' } }));
      expect(rejected.message).toMatch(/^cpuinfo \(from d\/\) holds more than 64 bytes/);
      const { resources } = await read([cpuinfo], { reader, limits: { maxResourceBytes: 64, sizePolicy: 'truncate' } });
      const resource = spool.load(resources[0]!);
      expect(resourceBytes(resource).byteLength).toBeLessThanOrEqual(64);
      expect(resource.description).toMatch(/^truncated: the first \d+ of more than 64 bytes/);
      const allowed = await read([cpuinfo], { reader, limits: { maxResourceBytes: 64, sizePolicy: 'allow' } });
      expect(resourceBytes(spool.load(allowed.resources[0]!)).byteLength).toBeGreaterThan(64);
    }
  });

  it('gives a clear error for a special file that opens but cannot be read (/proc/self/mem)', async () => {
    const mem: FileToRead = { realPath: '/proc/self/mem', uri: 'external:proc/mem', name: 'mem', input: 'd/', label: 'mem (from d/)' };
    for (const reader of [BY_READER, ON_THIS_THREAD]) {
      const error = await attachmentError(read([mem], { reader }));
      expect(error.message).toBe('cannot read mem (from d/): the system refused the read (EIO); attach a regular file');
    }
  });

  it('reads every file on this thread, with one warning, when the reader fails from the start', async () => {
    const names = ['a.txt', 'b.txt', 'c.txt'];
    for (const name of names) await ws.write(name, name);
    const files = filesOf(names);
    const here = (await read(files, { reader: ON_THIS_THREAD })).resources;
    for (const source of ['throw new Error("reader broke")', 'process.exit(3)', 'syntax error here (']) {
      ws.warnings.length = 0;
      const broken = await read(files, { reader: { from: 1, source } });
      expect(broken.resources).toEqual(here);
      expect(broken.stats.readerFiles).toBe(0);
      expect(broken.stats.readerFailure).toEqual(expect.any(String));
      expect(ws.warnings).toEqual([`reading 3 files on one thread: the reader thread failed (${broken.stats.readerFailure})`]);
    }
  });

  it('uses what a reader delivered before it crashed and reads the rest on this thread', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `d/c${i}.txt`);
    for (const [i, name] of names.entries()) await ws.write(name, `crash ${i}\n`);
    const files = filesOf(names);
    const here = (await read(files, { reader: ON_THIS_THREAD })).resources;
    // The reader crashes as it sends its first batch of two files. Node delivers what a thread
    // sent before it exited, but an uncaught error may be heard before or after that batch.
    for (const [crash, failure, delivered] of [
      ['process.exit(7)', 'exit code 7', [2]],
      ['throw new Error("reader broke")', 'reader broke', [0, 2]],
    ] as const) {
      ws.warnings.length = 0;
      const { resources, stats } = await read(files, { reader: { from: 1, batchFiles: 2, source: crashingReader(crash) } });
      expect(delivered).toContain(stats.readerFiles);
      expect(stats.readerFailure).toBe(failure);
      expect(resources.filter(isRefResource)).toHaveLength(stats.readerFiles);
      expect(resources.map(spool.load)).toEqual(here);
      expect(ws.warnings).toEqual([`reading ${6 - stats.readerFiles} files on one thread: the reader thread failed (${failure})`]);
    }
  });

  it("stops with an interrupted error once the pacer's signal is aborted", async () => {
    const names = Array.from({ length: 50 }, (_, i) => `f${i}.txt`);
    for (const name of names) await ws.write(name, 'x'.repeat(2000));
    const controller = new AbortController();
    controller.abort();
    for (const reader of [BY_READER, ON_THIS_THREAD]) {
      const error = await rejectionOf(read(filesOf(names), { reader, signal: controller.signal }), JpError);
      expect([error.code, error.exitCode]).toEqual(['interrupted', 130]);
    }
  });
});

describe('the file handler on a directory', () => {
  it('has a directory of 200 files or more read by the reader thread, a smaller one on this thread', async () => {
    for (let i = 0; i < 199; i++) await ws.write(`tree/f${String(i).padStart(3, '0')}.ts`, `export const v${i} = ${i};\n`);
    const ctx = { ...ws.ctx(), spool };
    const fewer = await createFileHandler().resolve(['tree/'], ctx);
    expect(fewer).toHaveLength(199);
    expect(fewer.filter(isRefResource)).toEqual([]);
    await ws.write('tree/f199.ts', 'export const v199 = 199;\n');
    const enough = await createFileHandler().resolve(['tree/'], ctx);
    expect(enough).toHaveLength(200);
    expect(enough.filter((resource) => !isRefResource(resource))).toEqual([]);
    expect(enough.slice(0, 199).map(spool.load)).toEqual(fewer);
    expect(fewer[0]).toMatchObject({ name: 'tree/f000.ts', mimeType: 'text/x-typescript', text: 'export const v0 = 0;\n' });
    expect(ws.warnings).toEqual([]);
  });
});

describe('startFileReading with a cache of file contents', () => {
  /** A clock for which every file written so far has settled. */
  const later = () => Date.now() + SETTLED_AFTER_MS + 60_000;
  const stampOf = (file: FileToRead): FileStamp => {
    const stats = statSync(file.realPath);
    return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
  };

  it('takes a file whose stamp is the one remembered from the cache, unread, and reads the others', async () => {
    await ws.write('known.ts', 'export const known = 1;\n');
    await ws.write('other.ts', 'export const other = 2;\n');
    await ws.write('known.pdf', '%PDF-1.4\n');
    await ws.write('big.txt', 'x'.repeat(64));
    const files = filesOf(['known.ts', 'other.ts', 'known.pdf', 'big.txt']);
    for (const reader of [BY_READER, ON_THIS_THREAD]) {
      // A digest no read of the file gives: a resource carrying it was not read.
      const cache = memoryFileContents();
      const remembered = sha256('what the store holds for known.ts');
      cache.remember(files[0]!.uri, stampOf(files[0]!), { sha256: remembered, byteLength: 24 });
      // Never taken from the cache: a binary format by name, and a file over the size threshold (the policy decides).
      cache.remember(files[2]!.uri, stampOf(files[2]!), { sha256: remembered, byteLength: 9 });
      cache.remember(files[3]!.uri, stampOf(files[3]!), { sha256: remembered, byteLength: 64 });
      const { resources, stats } = await read(files, { reader, fileContents: cache, clock: later, limits: { maxResourceBytes: 32, sizePolicy: 'truncate' } });
      expect(stats.knownFiles).toBe(1);
      expect(resources[0]).toEqual({ uri: files[0]!.uri, name: 'known.ts', mimeType: 'text/x-typescript', ref: { sha256: remembered, size: 24, encoding: 'text' } });
      expect(resources.slice(1).map(digestOf)).toEqual([sha256('export const other = 2;\n'), sha256('%PDF-1.4\n'), sha256('x'.repeat(32))]);
      expect(resources[3]!.description).toMatch(/^truncated: the first 32 of 64 bytes/);
    }
  });

  it('reads a file whose stamp changed, even to content of the same size, and remembers what it read', async () => {
    await ws.write('a.txt', 'one\n');
    await ws.write('b.txt', 'same\n');
    const files = filesOf(['a.txt', 'b.txt']);
    for (const reader of [BY_READER, ON_THIS_THREAD]) {
      const cache = memoryFileContents();
      await ws.write('a.txt', 'one\n');
      await read(files, { reader, fileContents: cache, clock: later });
      expect(cache.entries.get(files[0]!.uri)?.content).toEqual({ sha256: sha256('one\n'), byteLength: 4 });
      await ws.write('a.txt', 'two\n');
      await fs.utimes(files[0]!.realPath, new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
      const { resources, stats } = await read(files, { reader, fileContents: cache, clock: later });
      expect(stats.knownFiles).toBe(1);
      expect(resources.map(digestOf)).toEqual([sha256('two\n'), sha256('same\n')]);
      expect(cache.entries.get(files[0]!.uri)).toEqual({ stamp: stampOf(files[0]!), content: { sha256: sha256('two\n'), byteLength: 4 } });
    }
  });

  it('remembers only whole UTF-8 text, and uses it unread next time', async () => {
    const files = await writeMixed();
    for (const reader of [BY_READER, ON_THIS_THREAD]) {
      const cache = memoryFileContents();
      const first = await read(files, { reader, fileContents: cache, clock: later });
      const texts = files.filter((_, k) => MIXED[k]![2] === 'text');
      expect([...cache.entries.keys()].sort()).toEqual(texts.map((file) => file.uri).sort());
      for (const file of texts) expect(cache.entries.get(file.uri)).toEqual({ stamp: stampOf(file), content: { sha256: sha256(fileBytes(file)), byteLength: fileBytes(file).byteLength } });

      const second = await read(files, { reader, fileContents: cache, clock: later });
      expect(second.stats.knownFiles).toBe(texts.length);
      expect(second.resources.map(digestOf)).toEqual(first.resources.map(digestOf));
    }
    // Truncated text is not the file's content.
    const cut = memoryFileContents();
    await read(filesOf(['a.ts']), { reader: BY_READER, fileContents: cut, clock: later, limits: { maxResourceBytes: 4, sizePolicy: 'truncate' } });
    expect(cut.entries.size).toBe(0);
  });

  it('remembers a file only when its stamp had settled before the reading began', async () => {
    await ws.write('a.txt', 'fresh\n');
    const [file] = filesOf(['a.txt']);
    const { mtimeMs, ctimeMs } = stampOf(file!);
    const settledAt = Math.max(mtimeMs, ctimeMs) + SETTLED_AFTER_MS;
    for (const reader of [BY_READER, ON_THIS_THREAD]) {
      const cache = memoryFileContents();
      await read([file!], { reader, fileContents: cache, clock: () => settledAt });
      expect(cache.entries.size).toBe(0);
      await read([file!], { reader, fileContents: cache, clock: () => settledAt + 1 });
      expect(cache.entries.get(file!.uri)?.content).toEqual({ sha256: sha256('fresh\n'), byteLength: 6 });
    }
  });
});

/** The reader's program, writing down first each list of files it is given (a JSON line each). */
function loggingReader(log: string): string {
  return `{
    const { parentPort } = require('node:worker_threads');
    const note = (message) => {
      if (message.kind === 'files') require('node:fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(message.paths) + '\\n');
      if (message.kind === 'end') parentPort.off('message', note);
    };
    parentPort.on('message', note);
  }
  ${READER_WORKER_SOURCE}`;
}

/** The reader's program, running `crash` right after it sends its first batch. */
function crashingReader(crash: string): string {
  return `{
    const { parentPort } = require('node:worker_threads');
    const send = parentPort.postMessage.bind(parentPort);
    parentPort.postMessage = (batch) => {
      send(batch);
      ${crash};
    };
  }
  ${READER_WORKER_SOURCE}`;
}
