import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPackIndex } from './blob-pack.ts';
import { BlobStore, PACK_FROM, sha256Of } from './blob-store.ts';

const store = (jpDir?: string) => new BlobStore(jpDir ?? path.join(mkdtempSync(path.join(tmpdir(), 'jp-packs-')), '.jp'));

/** `count` distinct payloads; with `empty`, the last one is the empty blob. */
function payloads(count: number, prefix = 'blob', empty = true): Map<string, Uint8Array> {
  const map = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) {
    const bytes = new Uint8Array(Buffer.from(empty && i === count - 1 ? '' : `${prefix} ${i} ${'x'.repeat(i * 37)}`));
    map.set(sha256Of(bytes), bytes);
  }
  return map;
}

describe('blob packs', () => {
  it(`stores ${PACK_FROM} or more new blobs as one pack, readable by this store and a new one`, async () => {
    const blobs = store();
    const map = payloads(PACK_FROM + 4);
    expect(await blobs.putAll(map)).toEqual({ written: PACK_FROM + 4 });
    const packs = readdirSync(blobs.packsDir);
    expect(packs).toHaveLength(1);
    expect(packs[0]).toMatch(/^[0-9a-f]{64}\.pack$/);
    // Nothing loose, no temporary file.
    expect(readdirSync(blobs.dir)).toEqual(['packs']);
    // The pack's name is the sha256 of its index; every blob is in it, in order.
    const index = readPackIndex(path.join(blobs.packsDir, packs[0]!));
    expect([...index.keys()]).toEqual([...map.keys()]);
    for (const fresh of [blobs, store(blobs.jpDir)]) {
      for (const [sha256, bytes] of map) {
        expect(fresh.has(sha256, bytes.byteLength)).toBe(true);
        expect(fresh.has(sha256, bytes.byteLength + 1)).toBe(false);
        expect(Buffer.from(fresh.read(sha256, 'test')!)).toEqual(Buffer.from(bytes));
      }
    }
    // Stored again: nothing written; plus a few new ones: loose, below the pack threshold.
    expect(await store(blobs.jpDir).putAll(map)).toEqual({ written: 0 });
    const few = payloads(3, 'few', false);
    expect(await store(blobs.jpDir).putAll(new Map([...map, ...few]))).toEqual({ written: 3 });
    expect(readdirSync(blobs.packsDir)).toHaveLength(1);
    for (const sha256 of few.keys()) expect(existsSync(blobs.path(sha256))).toBe(true);
  });

  it('refuses a damaged packed blob, naming the pack', async () => {
    const blobs = store();
    const map = payloads(PACK_FROM);
    await blobs.putAll(map);
    const file = path.join(blobs.packsDir, readdirSync(blobs.packsDir)[0]!);
    const bytes = readFileSync(file);
    bytes[0] = bytes[0]! ^ 0xff; // the first blob's first byte
    writeFileSync(file, bytes);
    const [first] = map.keys();
    expect(() => store(blobs.jpDir).read(first!, 'conversation c turn 0')).toThrow(
      new RegExp(`^blob \\.jp/blobs/packs/${path.basename(file)} \\(${first}\\) is damaged: its content does not match its sha256 name \\(conversation c turn 0\\)`),
    );
  });

  it('refuses a pack whose end is cut off, naming it', async () => {
    const blobs = store();
    await blobs.putAll(payloads(PACK_FROM));
    const name = readdirSync(blobs.packsDir)[0]!;
    truncateSync(path.join(blobs.packsDir, name), statSync(path.join(blobs.packsDir, name)).size - 3);
    expect(() => store(blobs.jpDir).packIndex()).toThrow(`blob pack .jp/blobs/packs/${name} is damaged: no pack trailer at its end; restore it from a backup`);
  });

  it('finds a blob again when the pack it was in was rewritten by another process', async () => {
    const reader = store();
    const map = payloads(PACK_FROM + 1);
    await reader.putAll(map);
    reader.packIndex(); // this process now knows the old pack
    const [sha256, bytes] = [...map][0]!;
    // Another process (gc) writes the blob's new pack, then removes the old one.
    const other = store(reader.jpDir);
    const old = path.join(other.packsDir, readdirSync(other.packsDir)[0]!);
    await other.putPack([[sha256, bytes]]);
    const { rmSync } = await import('node:fs');
    rmSync(old);
    expect(Buffer.from(reader.read(sha256, 'test')!)).toEqual(Buffer.from(bytes));
  });
});
