import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobStore, sha256Of } from './blob-store.ts';
import { FileContents } from './file-content-cache.ts';

const jpDir = () => path.join(mkdtempSync(path.join(tmpdir(), 'jp-file-contents-')), '.jp');
const STAMP = { size: 6, mtimeMs: 1_700_000_000_123.456, ctimeMs: 1_700_000_000_200.5, ino: 42 };
const URI = 'file:///w/src/a.ts';

async function stored(dir: string, text: string) {
  const blobs = new BlobStore(dir);
  const bytes = new Uint8Array(Buffer.from(text));
  await blobs.putAll(new Map([[sha256Of(bytes), bytes]]));
  return { blobs, sha256: sha256Of(bytes), bytes };
}

describe('FileContents', () => {
  it('finds, in a later run, stored content by the exact stamp it was remembered with', async () => {
    const dir = jpDir();
    const { blobs, sha256, bytes } = await stored(dir, 'hello\n');
    const first = new FileContents(dir, blobs);
    expect(first.lookup(URI, STAMP)).toBeUndefined();
    first.remember(URI, STAMP, { sha256, byteLength: 6 });
    first.save();

    const next = new FileContents(dir, new BlobStore(dir));
    const found = next.lookup(URI, STAMP);
    expect(found).toEqual({ sha256, byteLength: 6 });
    // The file it was known from is where the content can be read again, should its blob go.
    expect(next.knownFile(sha256)).toBe('/w/src/a.ts');
    expect(bytes.byteLength).toBe(6);
    for (const changed of [{ size: 7 }, { mtimeMs: STAMP.mtimeMs + 0.001 }, { ctimeMs: STAMP.ctimeMs + 1 }, { ino: 43 }]) {
      expect(next.lookup(URI, { ...STAMP, ...changed })).toBeUndefined();
    }
    expect(next.lookup('file:///w/src/b.ts', STAMP)).toBeUndefined();
  });

  it('keeps only entries whose blob is stored, and forgets one whose blob gc removed', async () => {
    const dir = jpDir();
    const { blobs, sha256 } = await stored(dir, 'hello\n');
    const cache = new FileContents(dir, blobs);
    cache.remember(URI, STAMP, { sha256, byteLength: 6 });
    cache.remember('file:///w/never-stored.ts', STAMP, { sha256: 'a'.repeat(64), byteLength: 6 });
    cache.save();
    const onDisk = JSON.parse(readFileSync(cache.file, 'utf8')) as { files: unknown[][] };
    expect(onDisk.files.map((row) => row[0])).toEqual([URI]);

    // A cache saved after gc removed the blob keeps nothing of it.
    rmSync(blobs.path(sha256));
    const after = new FileContents(dir, new BlobStore(dir));
    after.remember('file:///w/other.ts', STAMP, { sha256: 'b'.repeat(64), byteLength: 6 });
    after.save();
    expect((JSON.parse(readFileSync(cache.file, 'utf8')) as { files: unknown[][] }).files).toEqual([]);
  });

  it('merges what it remembers into what was on disk: newest last, malformed entries dropped, looked up or not', async () => {
    const dir = jpDir();
    const { blobs, sha256 } = await stored(dir, 'hello\n');
    const { sha256: other } = await stored(dir, 'other\n');
    const old = (uri: string) => [uri, STAMP.size, STAMP.mtimeMs, STAMP.ctimeMs, STAMP.ino, sha256];
    const files = [old('file:///w/kept.ts'), old(URI), ['file:///w/null.ts', null], ['file:///w/short.ts', 6, 1, 2], null, 'file:///w/loose.ts'];
    const cache = new FileContents(dir, blobs);
    mkdirSync(path.dirname(cache.file), { recursive: true });
    writeFileSync(cache.file, JSON.stringify({ version: 2, files }));
    // Looked up first (so checked), then saved: neither is written back.
    expect(cache.lookup('file:///w/null.ts', STAMP)).toBeUndefined();
    expect(cache.lookup('file:///w/short.ts', STAMP)).toBeUndefined();
    cache.remember(URI, { ...STAMP, ino: 7 }, { sha256: other, byteLength: 6 });
    cache.save();
    const onDisk = JSON.parse(readFileSync(cache.file, 'utf8')) as { version: number; files: unknown[] };
    expect(onDisk).toEqual({ version: 2, files: [old('file:///w/kept.ts'), [URI, STAMP.size, STAMP.mtimeMs, STAMP.ctimeMs, 7, other]] });
    expect(new FileContents(dir, new BlobStore(dir)).lookup(URI, { ...STAMP, ino: 7 })).toMatchObject({ sha256: other });
  });

  it('writes nothing when nothing was remembered', async () => {
    const dir = jpDir();
    const { blobs } = await stored(dir, 'x');
    const cache = new FileContents(dir, blobs);
    cache.save();
    expect(() => readFileSync(cache.file)).toThrow(/ENOENT/);
  });

  it('treats a damaged or foreign cache file as empty, and malformed entries as absent', async () => {
    const dir = jpDir();
    const { blobs, sha256 } = await stored(dir, 'hello\n');
    const cache = new FileContents(dir, blobs);
    cache.remember(URI, STAMP, { sha256, byteLength: 6 });
    cache.save();
    // Cut short; version 1's object of entries (read again once after an upgrade); no files; not an object.
    for (const text of ['{"version":2,"files":[', `{"version":1,"files":{"${URI}":[6,1,2,3,"${sha256}"]}}`, '{"version":2,"files":{}}', 'null']) {
      writeFileSync(cache.file, text);
      expect(new FileContents(dir, blobs).lookup(URI, STAMP)).toBeUndefined();
    }
    const { size, mtimeMs, ctimeMs, ino } = STAMP;
    for (const entry of [[URI, size, mtimeMs, ctimeMs, ino, '../../../etc/passwd'], [URI, size, mtimeMs, ctimeMs, ino], [URI, { size }]]) {
      writeFileSync(cache.file, JSON.stringify({ version: 2, files: [entry] }));
      expect(new FileContents(dir, blobs).lookup(URI, STAMP)).toBeUndefined();
    }
  });

  it('hands out what it knows without asking the blob store: presence is decided when the turn is stored', async () => {
    const dir = jpDir();
    const { blobs, sha256 } = await stored(dir, 'hello\n');
    const cache = new FileContents(dir, blobs);
    cache.remember(URI, STAMP, { sha256, byteLength: 6 });
    rmSync(blobs.path(sha256));
    expect(cache.lookup(URI, STAMP)).toEqual({ sha256, byteLength: 6 });
    expect(cache.knownFile(sha256)).toBe('/w/src/a.ts');
    expect(cache.knownFile('c'.repeat(64))).toBeUndefined();
  });
});
