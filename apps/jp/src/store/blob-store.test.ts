import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobStore, sha256Of } from './blob-store.ts';

const store = () => new BlobStore(path.join(mkdtempSync(path.join(tmpdir(), 'jp-blobs-')), '.jp'));
const payload = (text: string) => {
  const bytes = new Uint8Array(Buffer.from(text));
  return { sha256: sha256Of(bytes), bytes, map: new Map([[sha256Of(bytes), bytes]]) };
};

describe('blob store', () => {
  it('stores raw bytes at blobs/<first two hex>/<sha256>, leaving no temporary file', async () => {
    const blobs = store();
    const { sha256, bytes, map } = payload('hello blobs\n');
    expect(await blobs.putAll(map)).toEqual({ written: 1 });
    const file = path.join(blobs.jpDir, 'blobs', sha256.slice(0, 2), sha256);
    expect(blobs.path(sha256)).toBe(file);
    expect(readFileSync(file)).toEqual(Buffer.from(bytes));
    expect(readdirSync(path.dirname(file))).toEqual([sha256]);
    expect(blobs.displayPath(sha256)).toBe(path.join('.jp', 'blobs', sha256.slice(0, 2), sha256));
  });

  it('is idempotent: a blob already present is not written again', async () => {
    const blobs = store();
    const { sha256, map } = payload('same content');
    await blobs.putAll(map);
    const old = new Date('2001-01-01T00:00:00Z');
    utimesSync(blobs.path(sha256), old, old);
    expect(await blobs.putAll(map)).toEqual({ written: 0 });
    expect(statSync(blobs.path(sha256)).mtime).toEqual(old);
  });

  it('survives many writers of the same blob at once', async () => {
    const blobs = store();
    const { sha256, bytes, map } = payload('x'.repeat(100_000));
    await Promise.all(Array.from({ length: 20 }, () => blobs.putAll(map)));
    expect(readFileSync(blobs.path(sha256))).toEqual(Buffer.from(bytes));
    expect(readdirSync(path.dirname(blobs.path(sha256)))).toEqual([sha256]);
  });

  it('replaces a stored blob of the wrong size (damage) when it is stored again', async () => {
    const blobs = store();
    const { sha256, bytes, map } = payload('the right content');
    await blobs.putAll(map);
    writeFileSync(blobs.path(sha256), 'short');
    expect(await blobs.putAll(map)).toEqual({ written: 1 });
    expect(readFileSync(blobs.path(sha256))).toEqual(Buffer.from(bytes));
  });

  it('reads verified bytes, and undefined for a missing blob', async () => {
    const blobs = store();
    const { sha256, bytes, map } = payload('verified');
    expect(blobs.read(sha256, 'x')).toBeUndefined();
    await blobs.putAll(map);
    expect(Buffer.from(blobs.read(sha256, 'x')!)).toEqual(Buffer.from(bytes));
    expect(blobs.has(sha256, bytes.byteLength)).toBe(true);
    expect(blobs.has(sha256, bytes.byteLength + 1)).toBe(false);
  });

  it('refuses bytes that do not match their name, naming the blob and what uses it', async () => {
    const blobs = store();
    const { sha256, map } = payload('original content');
    await blobs.putAll(map);
    writeFileSync(blobs.path(sha256), 'Original content'); // same size, one byte flipped
    expect(() => blobs.read(sha256, 'conversation c turn 2, file:///w/a.txt')).toThrow(
      new RegExp(`blob \\.jp/blobs/${sha256.slice(0, 2)}/${sha256} is damaged: its content does not match its sha256 name \\(conversation c turn 2, file:///w/a\\.txt\\)`),
    );
    expect(existsSync(blobs.path(sha256))).toBe(true);
  });

  it('reads at most a prefix of a blob: whole and verified when it fits, the first bytes of a longer one, loose or packed', async () => {
    const blobs = store();
    const short = payload('short');
    const long = payload('0123456789'.repeat(10));
    await blobs.putAll(new Map([...short.map, ...long.map]));
    expect(blobs.readPrefix(short.sha256, 64, 'test')).toEqual({ bytes: Buffer.from('short'), complete: true });
    expect(Buffer.from(blobs.readPrefix(long.sha256, 15, 'test')!.bytes).toString()).toBe('012345678901234');
    expect(blobs.readPrefix(long.sha256, 15, 'test')!.complete).toBe(false);
    expect(blobs.readPrefix(sha256Of(new Uint8Array([1])), 15, 'test')).toBeUndefined();
    // Packed (from PACK_FROM blobs on, one store writes a pack).
    const packedBlobs = store();
    const many = Array.from({ length: 20 }, (_, i) => payload(`packed blob ${i} `.repeat(5)));
    await packedBlobs.putAll(new Map(many.flatMap((p) => [...p.map])));
    expect(readdirSync(packedBlobs.packsDir).length).toBeGreaterThan(0);
    expect(Buffer.from(packedBlobs.readPrefix(many[3]!.sha256, 10, 'test')!.bytes).toString()).toBe('packed blo');
    // A damaged blob that fits is an error, as with read.
    writeFileSync(blobs.path(short.sha256), 'shorT');
    expect(() => blobs.readPrefix(short.sha256, 64, 'test')).toThrow(/damaged/);
  });
});
