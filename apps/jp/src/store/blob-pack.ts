import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from './atomic-write.ts';
import { SHA256_PATTERN } from './blob-sha256.ts';
import { enospcPoint } from './test-hooks.ts';
import { writeFailure, writeFully } from './write-fully.ts';

/*
 * A pack holds many blobs in one file, so storing a turn that brings thousands of new blobs (a
 * tree) costs one fsync instead of one per blob (RFD 008). Packs are written once and never
 * changed; `jp gc` deletes or rewrites them whole. Layout:
 *
 *   <blob bytes, back to back> <index: JSON [[sha256, offset, size], …]> <trailer: 16 bytes>
 *
 * The trailer is the magic `jp-pack1` and the index's byte length (uint64, big-endian), so the
 * index is read from the end without reading the blobs. The file is named by the sha256 of its
 * index: `packs/<sha256>.pack`.
 */

const MAGIC = Buffer.from('jp-pack1', 'latin1');
const TRAILER_BYTES = 16;

/** Where one blob lies in a pack. */
export interface PackedBlob {
  pack: string;
  offset: number;
  size: number;
}

/** A pack's file name for a given index. */
function packName(index: Buffer): string {
  return `${createHash('sha256').update(index).digest('hex')}.pack`;
}

/** The index and trailer that end a pack whose blobs are `rows`, and the pack's file name. */
function packEnd(rows: ReadonlyArray<readonly [string, number, number]>): { index: Buffer; trailer: Buffer; name: string } {
  const index = Buffer.from(JSON.stringify(rows), 'utf8');
  const trailer = Buffer.alloc(TRAILER_BYTES);
  MAGIC.copy(trailer, 0);
  trailer.writeBigUInt64BE(BigInt(index.byteLength), 8);
  return { index, trailer, name: packName(index) };
}

/** Where each of a pack's blobs lies, from its index rows. */
function packEntries(name: string, rows: ReadonlyArray<readonly [string, number, number]>): Map<string, PackedBlob> {
  return new Map(rows.map(([sha256, offset, size]) => [sha256, { pack: name, offset, size }]));
}

/**
 * Ends a file that holds blobs already, written by someone else (a spool, see blob-spool.ts), as
 * a pack: `rows` say where each lies, all below `end`. The index and trailer are written at `end`
 * (anything after it is cut) and the file is flushed; it keeps its name and place. Returns the
 * pack's name, under which the caller renames it into the packs directory (and flushes that),
 * and its entries. On failure the file is cut back to `end`, and the error names that pack.
 */
export async function sealPack(file: string, rows: ReadonlyArray<readonly [sha256: string, offset: number, size: number]>, end: number): Promise<{ name: string; entries: Map<string, PackedBlob> }> {
  const { index, trailer, name } = packEnd(rows);
  const handle = await open(file, 'r+');
  try {
    enospcPoint('pack-write', path.join(path.dirname(file), name));
    await writeFully(handle, [index, trailer], end);
    await handle.truncate(end + index.byteLength + TRAILER_BYTES);
    await handle.sync();
  } catch (error) {
    // The file holds its blobs as before and gives back the space the index took: it is never
    // adopted now, and its owner discards it.
    await handle.truncate(end).catch(() => undefined);
    throw writeFailure(error, path.join(path.dirname(file), name));
  } finally {
    await handle.close();
  }
  return { name, entries: packEntries(name, rows) };
}

/**
 * Writes the blobs as one pack in `dir` and returns its path once it is durable
 * (`writeFileDurably`; the caller flushes `dir`). `blobs` are in the order they are laid out.
 */
export async function writePack(dir: string, blobs: ReadonlyArray<readonly [sha256: string, bytes: Uint8Array]>, point = 'pack-write'): Promise<{ file: string; entries: Map<string, PackedBlob> }> {
  const rows: Array<[string, number, number]> = [];
  let offset = 0;
  for (const [sha256, bytes] of blobs) {
    rows.push([sha256, offset, bytes.byteLength]);
    offset += bytes.byteLength;
  }
  const { index, trailer, name } = packEnd(rows);
  const file = path.join(dir, name);
  await writeFileDurably(file, [...blobs.map(([, bytes]) => bytes), index, trailer], point);
  return { file, entries: packEntries(name, rows) };
}

/** Why a pack's index cannot be used: a damaged or foreign file. */
export class DamagedPack extends Error {}

/** Where a pack's index lies, from its size and trailer: its length and the bytes of blobs before it. */
function indexPlace(size: number, trailer: Buffer): { indexBytes: number; blobBytes: number } {
  if (size < TRAILER_BYTES || trailer.byteLength !== TRAILER_BYTES || !trailer.subarray(0, 8).equals(MAGIC)) throw new DamagedPack('no pack trailer at its end');
  const indexBytes = Number(trailer.readBigUInt64BE(8));
  const blobBytes = size - TRAILER_BYTES - indexBytes;
  if (blobBytes < 0) throw new DamagedPack('its index is longer than the file');
  return { indexBytes, blobBytes };
}

/** The entries of a pack named `name` from its index bytes; every row checked unless the name still matches them. */
function indexEntries(index: Buffer, blobBytes: number, name: string): Map<string, PackedBlob> {
  let rows: unknown;
  try {
    rows = JSON.parse(index.toString('utf8'));
  } catch {
    throw new DamagedPack('its index is not JSON');
  }
  const entries = new Map<string, PackedBlob>();
  if (!Array.isArray(rows)) throw new DamagedPack('its index is not a list');
  // A pack is named by the sha256 of its index: when the name still matches, the index is as
  // written, and its thousands of rows need no checking one by one.
  if (name === packName(index)) {
    for (const [sha256, offset, length] of rows as Array<[string, number, number]>) entries.set(sha256, { pack: name, offset, size: length });
    return entries;
  }
  for (const row of rows) {
    const [sha256, offset, length] = Array.isArray(row) ? (row as unknown[]) : [];
    const valid =
      typeof sha256 === 'string' &&
      SHA256_PATTERN.test(sha256) &&
      Number.isSafeInteger(offset) &&
      Number.isSafeInteger(length) &&
      (offset as number) >= 0 &&
      (length as number) >= 0 &&
      (offset as number) + (length as number) <= blobBytes;
    if (!valid) throw new DamagedPack('its index has an entry that is not [sha256, offset, size] inside the file');
    entries.set(sha256, { pack: name, offset: offset as number, size: length as number });
  }
  return entries;
}

/** The index of a pack file: where each of its blobs lies. Reads the trailer and the index only. */
export function readPackIndex(file: string): Map<string, PackedBlob> {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const trailer = Buffer.alloc(TRAILER_BYTES);
    const got = size < TRAILER_BYTES ? 0 : readSync(fd, trailer, 0, TRAILER_BYTES, size - TRAILER_BYTES);
    const { indexBytes, blobBytes } = indexPlace(size, trailer.subarray(0, got));
    const index = Buffer.alloc(indexBytes);
    if (readSync(fd, index, 0, indexBytes, blobBytes) !== indexBytes) throw new DamagedPack('its index is cut short');
    return indexEntries(index, blobBytes, path.basename(file));
  } finally {
    closeSync(fd);
  }
}

/** The index of a pack read whole into memory (`bytes`, the file `name`): where each of its blobs lies in it. */
export function packIndexOf(bytes: Buffer, name: string): Map<string, PackedBlob> {
  const { indexBytes, blobBytes } = indexPlace(bytes.byteLength, bytes.subarray(Math.max(0, bytes.byteLength - TRAILER_BYTES)));
  return indexEntries(bytes.subarray(blobBytes, blobBytes + indexBytes), blobBytes, name);
}

/** The bytes of one packed blob (not verified: the caller checks them against their sha256). */
export function readPacked(file: string, blob: PackedBlob): Buffer {
  const fd = openSync(file, 'r');
  try {
    const bytes = Buffer.allocUnsafe(blob.size);
    let filled = 0;
    while (filled < blob.size) {
      const read = readSync(fd, bytes, filled, blob.size - filled, blob.offset + filled);
      if (read === 0) break;
      filled += read;
    }
    return bytes.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}
