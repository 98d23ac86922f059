import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { JpError } from '@jp/core';
import { writeFileDurably } from './atomic-write.ts';
import { readPacked, writePack, type PackedBlob } from './blob-pack.ts';
import { readPackIndexes } from './blob-pack-indexes.ts';
import { makeDirectories, removeEmptyDirectories, syncDirectory } from './durable-directories.ts';
import { readStart } from './read-file-start.ts';
import { sha256Of } from './blob-sha256.ts';
import { BlobSpool } from './blob-spool.ts';

export { SHA256_PATTERN, sha256Of } from './blob-sha256.ts';

/** How many loose blobs are written at once: parallel fsyncs cost less than the same in a row. */
const WRITE_CONCURRENCY = 32;

/** From this many new blobs in one store on, they are written as one pack (one fsync, not one each). */
export const PACK_FROM = 16;

/** A payload to store: its bytes, or its size and a way to make the bytes when they must be written. */
export type BlobContent = Uint8Array | { size: number; bytes: () => Uint8Array };

function sizeOf(content: BlobContent): number {
  return content instanceof Uint8Array ? content.byteLength : content.size;
}

function bytesOf(content: BlobContent): Uint8Array {
  return content instanceof Uint8Array ? content : content.bytes();
}

/**
 * Content-addressed payloads under `.jp/blobs/`: loose, one file per blob at `<first two
 * hex>/<sha256>` holding the raw bytes (no compression, see RFD 008), or many together in a pack
 * at `packs/<sha256 of its index>.pack` (blob-pack.ts). Writes are atomic (temporary file, fsync,
 * rename, fsync of the directory) and idempotent (a blob already present is not written again);
 * reads verify the content against its sha256.
 */
export class BlobStore {
  readonly dir: string;
  readonly packsDir: string;
  /** Where each packed blob lies, loaded on first use. */
  #packed: Map<string, PackedBlob> | undefined;
  /** This run's spools: `putAll` adopts what they hold instead of writing it. */
  #spools: BlobSpool[] = [];

  constructor(readonly jpDir: string) {
    this.dir = path.join(jpDir, 'blobs');
    this.packsDir = path.join(this.dir, 'packs');
  }

  path(sha256: string): string {
    return path.join(this.dir, sha256.slice(0, 2), sha256);
  }

  /** The path shown in messages, relative to the workspace (a packed blob's pack). */
  displayPath(sha256: string): string {
    const packed = this.#packed?.get(sha256);
    if (packed !== undefined) return path.join('.jp', 'blobs', 'packs', `${packed.pack} (${sha256})`);
    return path.join('.jp', 'blobs', sha256.slice(0, 2), sha256);
  }

  /** Every pack's index, read now (trailer and index only). A damaged pack is an error naming it. */
  packIndex(): Map<string, PackedBlob> {
    this.#packed ??= readPackIndexes(this.packsDir);
    return this.#packed;
  }

  /**
   * A spool for a reader of many files (blob-spool.ts): content written to it as it is read is
   * adopted by `putAll` when a turn stores it. The caller discards the spool when done.
   */
  createSpool(): BlobSpool {
    const spool = new BlobSpool(this.packsDir);
    this.#spools.push(spool);
    return spool;
  }

  /** Forget the pack indexes read so far (another process may have repacked). */
  reloadPacks(): void {
    this.#packed = undefined;
  }

  /**
   * Whether a blob of that name and size is stored (its content is not read). Pack indexes are
   * read only when a blob is not loose, so a store of a few blobs reads none of them, and once
   * read they answer without a `stat` (a tree's thousands of blobs in one pack).
   */
  has(sha256: string, size: number, looseDirs?: ReadonlySet<string>): boolean {
    const packed = this.#packed?.get(sha256);
    if (packed !== undefined && packed.size === size) return true;
    if (looseDirs === undefined || looseDirs.has(sha256.slice(0, 2))) {
      // No exception for a miss: a first store of a tree misses thousands of times.
      const stat = statSync(this.path(sha256), { throwIfNoEntry: false });
      if (stat !== undefined && stat.isFile() && stat.size === size) return true;
    }
    return this.#packed === undefined && this.packIndex().get(sha256)?.size === size;
  }

  /** The `<first two hex>` directories of loose blobs there are now: a blob outside them is not loose. */
  private looseDirs(): Set<string> {
    try {
      return new Set(readdirSync(this.dir).filter((name) => name.length === 2));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return new Set();
    }
  }

  /**
   * Stores payloads keyed by their sha256 and returns once every one is durable; the caller holds
   * the blob lock (`ConversationStore.lockBlobs`). A blob already
   * present with the right size is left alone; a loose one of the wrong size (damage) is replaced.
   * Blobs a spool of this run holds (`createSpool`) are adopted with their spool file; of the
   * rest, from `PACK_FROM` missing blobs on, they go into one new pack; fewer are written loose.
   */
  async putAll(payloads: ReadonlyMap<string, BlobContent>): Promise<{ written: number }> {
    // Presence is decided now, under the blob lock the caller holds: an index read before it may
    // list a pack `jp gc` has removed since.
    this.reloadPacks();
    // Many payloads (a tree): one listing of the loose directories instead of a stat per blob in none of them.
    const looseDirs = payloads.size >= PACK_FROM ? this.looseDirs() : undefined;
    let missing = [...payloads].filter(([sha256, content]) => !this.has(sha256, sizeOf(content), looseDirs));
    if (missing.length === 0) return { written: 0 };
    let spooled = 0;
    if (await this.adoptSpooled(missing)) {
      const before = missing.length;
      missing = missing.filter(([sha256, content]) => this.#packed?.get(sha256)?.size !== sizeOf(content));
      spooled = before - missing.length;
      if (missing.length === 0) return { written: spooled };
    }
    if (missing.length >= PACK_FROM) {
      await this.putPack(missing.map(([sha256, content]) => [sha256, bytesOf(content)] as const));
      return { written: missing.length + spooled };
    }
    const dirs = new Set(missing.map(([sha256]) => path.dirname(this.path(sha256))));
    const made: string[] = [];
    const parents = await makeDirectories(dirs, made);
    let next = 0;
    const worker = async () => {
      while (next < missing.length) {
        const [sha256, content] = missing[next++]!;
        await writeFileDurably(this.path(sha256), [bytesOf(content)], 'blob-write');
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, missing.length) }, worker));
    } catch (error) {
      // A full disk leaves .jp/ as it was: no empty blob directories made for blobs never written (issue 35).
      await removeEmptyDirectories(dirs, made);
      throw error;
    }
    await Promise.all([...dirs, ...parents].map(syncDirectory));
    return { written: missing.length + spooled };
  }

  /** Adopts the spool files holding any of `missing` as packs; returns whether it adopted any. */
  private async adoptSpooled(missing: ReadonlyArray<readonly [string, BlobContent]>): Promise<boolean> {
    if (this.#spools.length === 0) return false;
    const wanted = new Set(missing.map(([sha256]) => sha256));
    let any = false;
    for (const spool of this.#spools) {
      const adopted = await spool.adopt(wanted);
      if (adopted.size === 0) continue;
      any = true;
      this.addPacked(adopted);
    }
    if (any) await syncDirectory(this.packsDir);
    return any;
  }

  /** Writes the blobs as one durable pack and adds it to the index; `point` names the write for the test hooks. */
  async putPack(blobs: ReadonlyArray<readonly [string, Uint8Array]>, point = 'pack-write'): Promise<string> {
    const made: string[] = [];
    const parents = await makeDirectories([this.packsDir], made);
    let written: Awaited<ReturnType<typeof writePack>>;
    try {
      written = await writePack(this.packsDir, blobs, point);
    } catch (error) {
      await removeEmptyDirectories([this.packsDir], made);
      throw error;
    }
    const { file, entries } = written;
    await Promise.all([this.packsDir, ...parents].map(syncDirectory));
    this.addPacked(entries);
    return file;
  }

  /** Adds a new pack's blobs to the index (a blob packed already keeps its place); the index may take `entries` over. */
  private addPacked(entries: Map<string, PackedBlob>): void {
    const packed = this.packIndex();
    // The first pack of a store (a first attach): its map becomes the index as it is.
    if (packed.size === 0) this.#packed = entries;
    else for (const [sha256, blob] of entries) if (!packed.has(sha256)) packed.set(sha256, blob);
  }

  /**
   * The verified bytes of a blob, or `undefined` when it is missing. Bytes that do not hash to
   * the blob's name (disk damage, an edit) are an error naming the blob: they are never returned.
   */
  read(sha256: string, what: string): Uint8Array | undefined {
    const bytes = this.readLoose(sha256) ?? this.readFromPack(sha256);
    if (bytes === undefined) return undefined;
    if (sha256Of(bytes) !== sha256) {
      throw new JpError(
        `blob ${this.displayPath(sha256)} is damaged: its content does not match its sha256 name (${what}); jp will not use it — restore the file from a backup, or fork the conversation before that turn`,
        { code: 'damaged_blob' },
      );
    }
    return bytes;
  }

  /**
   * At most `maxBytes` of a blob, for showing a part of it; `undefined` when it is missing. A blob
   * that fits is read whole and verified like `read`; of a longer one only the first `maxBytes`
   * are read, which cannot be checked against the digest (`complete: false` says so).
   */
  readPrefix(sha256: string, maxBytes: number, what: string): { bytes: Uint8Array; complete: boolean } | undefined {
    const packed = this.packIndex().get(sha256);
    const size = packed?.size ?? this.looseSize(sha256);
    if (size === undefined || size <= maxBytes) {
      const bytes = this.read(sha256, what);
      return bytes === undefined ? undefined : { bytes, complete: true };
    }
    if (packed !== undefined) return { bytes: readPacked(path.join(this.packsDir, packed.pack), { ...packed, size: maxBytes }), complete: false };
    return { bytes: readStart(this.path(sha256), maxBytes), complete: false };
  }

  private looseSize(sha256: string): number | undefined {
    try {
      return statSync(this.path(sha256)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  private readLoose(sha256: string): Buffer | undefined {
    try {
      return readFileSync(this.path(sha256));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** From its pack; once more after re-reading the indexes if that pack is gone (`jp gc` repacked it). */
  private readFromPack(sha256: string, retry = true): Buffer | undefined {
    const packed = this.packIndex().get(sha256);
    if (packed === undefined) {
      if (!retry) return undefined;
      this.reloadPacks();
      return this.readFromPack(sha256, false);
    }
    try {
      return readPacked(path.join(this.packsDir, packed.pack), packed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !retry) throw error;
      this.reloadPacks();
      return this.readFromPack(sha256, false);
    }
  }
}
