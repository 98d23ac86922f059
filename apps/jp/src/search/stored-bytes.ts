import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { PackedBlob } from '../store/blob-pack.ts';

/** Open pack files kept at once; a workspace with more packs reopens the oldest. */
const OPEN_PACKS = 32;

/**
 * Reads what a search reads — events files and blobs, loose or packed — into one buffer that is
 * reused, so a search of thousands of files allocates as much as its largest one. A view returned
 * is valid until the next read. Blobs are not verified against their sha256 here: a search only
 * reports what is stored (`jp conversation show` verifies what it shows).
 */
export class StoredBytes {
  #buffer = Buffer.allocUnsafe(1 << 20);
  readonly #packs = new Map<string, number>();
  readonly blobsDir: string;

  constructor(jpDir: string) {
    this.blobsDir = path.join(jpDir, 'blobs');
  }

  #room(size: number): Buffer {
    if (size > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(Math.max(size, this.#buffer.length * 2));
    return this.#buffer;
  }

  #fill(fd: number, size: number, position: number): Buffer {
    const buffer = this.#room(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(fd, buffer, filled, size - filled, position + filled);
      if (read === 0) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  }

  /** A whole file, or `undefined` when it is not there. */
  file(file: string): Buffer | undefined {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return this.#fill(fd, fstatSync(fd).size, 0);
    } finally {
      closeSync(fd);
    }
  }

  /** A loose blob's bytes; `undefined` when it is not there. */
  loose(sha256: string): Buffer | undefined {
    return this.file(path.join(this.blobsDir, sha256.slice(0, 2), sha256));
  }

  /** A packed blob's bytes; `undefined` when its pack is gone (`jp gc` repacked meanwhile). */
  packed(blob: PackedBlob): Buffer | undefined {
    const fd = this.#pack(blob.pack);
    return fd === undefined ? undefined : this.#fill(fd, blob.size, blob.offset);
  }

  /** An open pack file; `undefined` when it is gone (`jp gc` repacked meanwhile). */
  #pack(name: string): number | undefined {
    let fd = this.#packs.get(name);
    if (fd !== undefined) return fd;
    if (this.#packs.size >= OPEN_PACKS) {
      const [oldest, open] = this.#packs.entries().next().value!;
      closeSync(open);
      this.#packs.delete(oldest);
    }
    try {
      fd = openSync(path.join(this.blobsDir, 'packs', name), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    this.#packs.set(name, fd);
    return fd;
  }

  close(): void {
    for (const fd of this.#packs.values()) closeSync(fd);
    this.#packs.clear();
  }
}
