import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPackIndex } from './blob-pack.ts';
import { isStaleTemporary } from './blob-spool.ts';
import { BlobStore, sha256Of, type BlobContent } from './blob-store.ts';
import { collectGarbage } from './collect-garbage.ts';
import { ConversationStore } from './conversation-store.ts';

const newStore = () => new BlobStore(path.join(mkdtempSync(path.join(tmpdir(), 'jp-spool-')), '.jp'));

/** Writes the texts back to back into a new spool file, as a reader would, and reports them. */
function spoolTexts(blobs: BlobStore, texts: string[], trailing = '', done = true) {
  const spool = blobs.createSpool();
  const file = spool.create();
  const written = [];
  let offset = 0;
  for (const text of texts) {
    const bytes = Buffer.from(text);
    written.push({ file, sha256: sha256Of(bytes), offset, size: bytes.byteLength });
    offset += bytes.byteLength;
  }
  // What a reader wrote after its last report (it was stopped) is not part of any blob.
  writeFileSync(file, texts.join('') + trailing);
  spool.written(file, written, done);
  return { spool, file, written };
}

describe('blob spool', () => {
  it('is adopted as a pack when a turn stores its blobs, which are then read and verified from it', async () => {
    const blobs = newStore();
    const { spool, file, written } = spoolTexts(blobs, ['alpha\n', 'beta\n', 'alpha\n'], 'cut off');
    expect(Buffer.from(spool.read(written[1]!.sha256)!).toString()).toBe('beta\n');

    const other = new Uint8Array(Buffer.from('not spooled'));
    const payloads = new Map<string, BlobContent>(written.map((blob) => [blob.sha256, { size: blob.size, bytes: () => spool.read(blob.sha256)! }]));
    payloads.set(sha256Of(other), other);
    expect(await blobs.putAll(payloads)).toEqual({ written: 3 });

    expect(existsSync(file)).toBe(false);
    const packs = readdirSync(blobs.packsDir);
    expect(packs).toHaveLength(1);
    // The index lists each blob once, and the file ends with it (the trailing bytes are gone).
    const index = readPackIndex(path.join(blobs.packsDir, packs[0]!));
    expect([...index.keys()]).toEqual([written[0]!.sha256, written[1]!.sha256]);
    expect(Buffer.from(new BlobStore(blobs.jpDir).read(written[1]!.sha256, 'x')!).toString()).toBe('beta\n');
    // The one blob no spool held is stored the usual way.
    expect(blobs.has(sha256Of(other), other.byteLength)).toBe(true);
    expect(existsSync(blobs.path(sha256Of(other)))).toBe(true);
    // Its content is still readable through the spool, now from the pack.
    expect(Buffer.from(spool.read(written[0]!.sha256)!).toString()).toBe('alpha\n');
    spool.discard();
    expect(readdirSync(blobs.packsDir)).toEqual(packs);
  });

  it('is ended as a pack in its place as soon as its blobs are reported, so that adopting it is a rename', async () => {
    const blobs = newStore();
    const { spool, file, written } = spoolTexts(blobs, ['one\n', 'two\n'], 'cut off');
    // In the background: the index and trailer appear at the end of the spool file itself.
    let index: ReturnType<typeof readPackIndex> | undefined;
    for (let waited = 0; index === undefined && waited < 5000; waited += 10) {
      try {
        index = readPackIndex(file);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    expect([...index!.keys()]).toEqual(written.map((blob) => blob.sha256));
    expect(readdirSync(blobs.packsDir)).toEqual([path.basename(file)]);
    // Still no part of the store until a turn adopts it.
    expect(blobs.has(written[0]!.sha256, written[0]!.size)).toBe(false);
    const payloads = new Map<string, BlobContent>(written.map((blob) => [blob.sha256, { size: blob.size, bytes: () => spool.read(blob.sha256)! }]));
    expect(await blobs.putAll(payloads)).toEqual({ written: 2 });
    const [pack] = readdirSync(blobs.packsDir);
    expect(pack).toMatch(/^[0-9a-f]{64}\.pack$/);
    expect(Buffer.from(new BlobStore(blobs.jpDir).read(written[1]!.sha256, 'x')!).toString()).toBe('two\n');
  });

  it('is ended as a pack only when adopted if its writer may still write to it', async () => {
    const blobs = newStore();
    const { spool, file, written } = spoolTexts(blobs, ['left\n', 'right\n'], 'still being written', false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(() => readPackIndex(file)).toThrow(/no pack trailer/);
    const payloads = new Map<string, BlobContent>(written.map((blob) => [blob.sha256, { size: blob.size, bytes: () => spool.read(blob.sha256)! }]));
    expect(await blobs.putAll(payloads)).toEqual({ written: 2 });
    expect(Buffer.from(new BlobStore(blobs.jpDir).read(written[0]!.sha256, 'x')!).toString()).toBe('left\n');
  });

  it('leaves nothing behind when discarded while it is being ended as a pack', async () => {
    const blobs = newStore();
    const { spool, file } = spoolTexts(blobs, ['soon gone']);
    spool.discard();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(file)).toBe(false);
    expect(existsSync(path.join(blobs.jpDir, 'blobs'))).toBe(false);
  });

  it('is not adopted when the store holds its blobs already, and discard leaves .jp as it was', async () => {
    const blobs = newStore();
    const { spool, file, written } = spoolTexts(blobs, ['x'.repeat(10)]);
    expect(await blobs.putAll(new Map())).toEqual({ written: 0 });
    expect(existsSync(file)).toBe(true);
    spool.discard();
    expect(existsSync(file)).toBe(false);
    // create() made .jp/blobs/packs (and .jp/blobs): discard removes them again.
    expect(existsSync(path.join(blobs.jpDir, 'blobs'))).toBe(false);
    expect(written).toHaveLength(1);
  });

  it('keeps directories that hold something else when discarded', async () => {
    const blobs = newStore();
    const stored = new Uint8Array(Buffer.from('kept'));
    await blobs.putAll(new Map([[sha256Of(stored), stored]]));
    const { spool } = spoolTexts(blobs, ['gone']);
    spool.discard();
    // packs/ was made for the spool and goes with it; blobs/ holds a loose blob and stays.
    expect(existsSync(blobs.packsDir)).toBe(false);
    expect(readdirSync(blobs.dir)).toEqual([sha256Of(stored).slice(0, 2)]);
    expect(blobs.has(sha256Of(stored), stored.byteLength)).toBe(true);
  });
});

describe('jp gc and spool files', () => {
  it('removes leftovers of dead or old processes and leaves a running query’s spool alone', async () => {
    const conversations = new ConversationStore(path.join(mkdtempSync(path.join(tmpdir(), 'jp-spool-gc-')), '.jp'));
    const spool = conversations.blobs.createSpool();
    const live = spool.create();
    // A process that has exited: its id is free (until reused, which the age rule covers).
    const deadPid = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']));
    const dead = path.join(conversations.blobs.packsDir, `.spool-${deadPid}-abcdef.tmp`);
    const old = path.join(conversations.blobs.packsDir, `.spool-${process.pid}-012345.tmp`);
    const plain = path.join(conversations.blobs.packsDir, `.x.pack.${process.pid}.1234.tmp`);
    for (const file of [dead, old, plain]) writeFileSync(file, 'partial');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);

    await collectGarbage(conversations);
    expect(readdirSync(conversations.blobs.packsDir)).toEqual([path.basename(live)]);
  });

  it('tells temporary files by name, process and age', () => {
    expect(isStaleTemporary('.spool-1-ab.tmp', 0)).toBe(false); // pid 1 always runs
    expect(isStaleTemporary('.spool-1-ab.tmp', 3 * 24 * 60 * 60 * 1000)).toBe(true);
    expect(isStaleTemporary('.abc.pack.12.34.tmp', 0)).toBe(true);
    expect(isStaleTemporary('abc.pack', 0)).toBe(false);
  });
});
