import { readdirSync } from 'node:fs';
import path from 'node:path';
import { JpError } from '@jp/core';
import { DamagedPack, packIndexOf, type PackedBlob } from '../store/blob-pack.ts';
import { BytePrefilter } from './byte-prefilter.ts';
import { matchLines, type LineHit } from './match-lines.ts';
import type { SearchPattern } from './search-pattern.ts';
import type { IndexQuery, SearchIndex } from './search-index.ts';
import { StoredBytes } from './stored-bytes.ts';

/** Line hits kept for blobs seen again (a file attached to many conversations); past this, searched again instead. */
const REMEMBERED_LINES = 20_000;

/**
 * Searches the text of stored snapshots, each blob once: a blob attached to a hundred
 * conversations is read and searched the first time, and its answer reused. The raw bytes are
 * checked for the pattern's required text before anything is decoded. Packs are read whole, once,
 * and searched as one buffer each: a tree of thousands of files in one pack costs one read and one
 * scan, and only the blobs where the required text lies are decoded later.
 */
export class SnapshotSearch {
  readonly #prefilter: BytePrefilter;
  readonly #bytes: StoredBytes;
  readonly #none = new Set<string>();
  readonly #found = new Map<string, LineHit[]>();
  #remembered = 0;
  /** Packed blobs: where each lies, and whether its bytes may hold a match (after the packs were scanned). */
  #packed: Map<string, PackedBlob & { candidate: boolean }> | undefined;

  constructor(
    readonly pattern: SearchPattern,
    readonly context: number,
    jpDir: string,
    readonly index?: SearchIndex | undefined,
    readonly query?: IndexQuery | undefined,
  ) {
    this.#prefilter = new BytePrefilter(pattern, 'raw');
    this.#bytes = new StoredBytes(jpDir);
  }

  /** Reads every pack once, and notes which of their blobs hold the pattern's required text. */
  #scanPacks(): Map<string, PackedBlob & { candidate: boolean }> {
    const packed = new Map<string, PackedBlob & { candidate: boolean }>();
    const dir = path.join(this.#bytes.blobsDir, 'packs');
    let names: string[];
    try {
      names = readdirSync(dir).filter((name) => name.endsWith('.pack')).sort();
    } catch {
      names = [];
    }
    for (const name of names) {
      const file = path.join(dir, name);
      // A pack the index knows, whose filter rules the pattern out, is not read: none of its blobs
      // can match (its rows are in the index). Packs never change under their name.
      const known = this.index?.immutable(`blobs/packs/${name}`, 'raw', this.query!);
      const rows = known?.known ? (known.extra as Array<[string, number, number]> | undefined) : undefined;
      if (rows !== undefined && !known!.mayHold) {
        for (const [sha256] of rows) if (!packed.has(sha256)) this.#none.add(sha256);
        continue;
      }
      const bytes = this.#bytes.file(file);
      if (bytes === undefined) continue; // removed by `jp gc` meanwhile
      let entries: Map<string, PackedBlob>;
      try {
        entries = packIndexOf(bytes, name);
      } catch (error) {
        if (!(error instanceof DamagedPack)) throw error;
        throw new JpError(`blob pack .jp/blobs/packs/${name} is damaged: ${error.message}; restore it from a backup`, { code: 'damaged_blob' });
      }
      if (rows === undefined) this.index?.recordImmutable(`blobs/packs/${name}`, bytes, [...entries].map(([sha256, blob]) => [sha256, blob.offset, blob.size]));
      // One scan of the whole pack; each place the required text starts marks the blob it is in.
      const positions = this.#prefilter.positions(bytes);
      const blobs = [...entries].sort((a, b) => a[1].offset - b[1].offset);
      const candidates = new Set<string>();
      let k = 0;
      for (const at of positions ?? []) {
        while (k < blobs.length && blobs[k]![1].offset + blobs[k]![1].size <= at) k++;
        if (k < blobs.length && blobs[k]![1].offset <= at) candidates.add(blobs[k]![0]);
      }
      for (const [sha256, blob] of blobs) {
        if (!packed.has(sha256)) packed.set(sha256, Object.assign(blob, { candidate: positions === undefined || candidates.has(sha256) }));
      }
    }
    return packed;
  }

  /**
   * Whether blob `sha256` may hold a match, as far as its raw bytes tell; for a loose blob that
   * means reading it. False for a blob the store does not hold.
   */
  mayMatch(sha256: string): boolean {
    // The packs first: scanning them rules out their blobs.
    this.#packed ??= this.#scanPacks();
    if (this.#none.has(sha256)) return false;
    if (this.#found.has(sha256)) return true;
    const packed = this.#packed.get(sha256);
    if (packed !== undefined && !packed.candidate) {
      this.#none.add(sha256);
      return false;
    }
    if (packed !== undefined) return true;
    const key = `blobs/${sha256.slice(0, 2)}/${sha256}`;
    const known = this.index?.immutable(key, 'raw', this.query!);
    if (known?.known && !known.mayHold) {
      this.#none.add(sha256);
      return false;
    }
    const loose = this.#bytes.loose(sha256);
    if (loose !== undefined && known !== undefined && !known.known) this.index!.recordImmutable(key, loose);
    // A missing blob may: reading it says it is missing.
    if (loose === undefined || this.#prefilter.mayMatch(loose)) return true;
    this.#none.add(sha256);
    return false;
  }

  /** A blob's bytes, from its pack or loose; `undefined` when the store does not hold it. */
  #read(sha256: string): Buffer | undefined {
    this.#packed ??= this.#scanPacks();
    const packed = this.#packed.get(sha256);
    return (packed === undefined ? undefined : this.#bytes.packed(packed)) ?? this.#bytes.loose(sha256);
  }

  /** The lines of a text snapshot that match; `undefined` when its blob is not in the store. */
  blob(sha256: string): LineHit[] | undefined {
    if (this.#none.has(sha256)) return [];
    const known = this.#found.get(sha256);
    if (known !== undefined) return known;
    const bytes = this.#read(sha256);
    if (bytes === undefined) return undefined;
    const hits = this.#prefilter.mayMatch(bytes) ? matchLines(bytes.toString('utf8'), this.pattern, this.context) : [];
    if (hits.length === 0) this.#none.add(sha256);
    else if (this.#remembered + hits.length <= REMEMBERED_LINES) {
      this.#found.set(sha256, hits);
      this.#remembered += hits.length;
    }
    return hits;
  }

  /** The lines of a snapshot whose text the stored line carries inline. */
  inline(text: string): LineHit[] {
    return matchLines(text, this.pattern, this.context);
  }

  close(): void {
    this.#bytes.close();
  }
}
