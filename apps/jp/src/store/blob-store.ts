import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { JpError } from '@jp/core/errors';

/** How many blobs are written at once: parallel fsyncs cost far less than the same fsyncs in a row. */
const WRITE_CONCURRENCY = 32;

export const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/** A payload to store: its bytes, or its size and a way to make the bytes when they must be written. */
export type BlobContent = Uint8Array | { size: number; bytes: () => Uint8Array };

function sizeOf(content: BlobContent): number {
  return content instanceof Uint8Array ? content.byteLength : content.size;
}

function bytesOf(content: BlobContent): Uint8Array {
  return content instanceof Uint8Array ? content : content.bytes();
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Content-addressed payloads under `.jp/blobs/<first two hex>/<sha256>`: the file holds the raw
 * bytes (no compression, see RFD 008), so its name is the sha256 of its content. Writes are
 * atomic (temporary file, fsync, rename, fsync of the directory) and idempotent (a blob already
 * present is not written again); reads verify the content against the name.
 */
export class BlobStore {
  readonly dir: string;

  constructor(readonly jpDir: string) {
    this.dir = path.join(jpDir, 'blobs');
  }

  path(sha256: string): string {
    return path.join(this.dir, sha256.slice(0, 2), sha256);
  }

  /** The path shown in messages, relative to the workspace. */
  displayPath(sha256: string): string {
    return path.join('.jp', 'blobs', sha256.slice(0, 2), sha256);
  }

  /** Whether a blob of that name and size is stored (its content is not read). */
  has(sha256: string, size: number): boolean {
    try {
      const stat = statSync(this.path(sha256));
      return stat.isFile() && stat.size === size;
    } catch {
      return false;
    }
  }

  /**
   * Stores payloads keyed by their sha256 and returns once every one is durable: written to a
   * temporary file, flushed, renamed into place, and its directory flushed. A blob already present
   * with the right size is left alone; one of the wrong size (damage) is replaced.
   */
  async putAll(payloads: ReadonlyMap<string, BlobContent>): Promise<{ written: number }> {
    const missing = [...payloads].filter(([sha256, content]) => !this.has(sha256, sizeOf(content)));
    if (missing.length === 0) return { written: 0 };
    const dirs = new Set(missing.map(([sha256]) => path.dirname(this.path(sha256))));
    // New directories' own entries must be durable too: flush the parents they were made in.
    const parents = new Set<string>();
    for (const dir of dirs) {
      const made = await mkdir(dir, { recursive: true });
      if (made !== undefined) parents.add(path.dirname(made)).add(path.dirname(dir));
    }
    let next = 0;
    const worker = async () => {
      while (next < missing.length) {
        const [sha256, content] = missing[next++]!;
        await writeDurably(this.path(sha256), bytesOf(content));
      }
    };
    await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, missing.length) }, worker));
    await Promise.all([...dirs, ...parents].map(syncDirectory));
    return { written: missing.length };
  }

  /**
   * The verified bytes of a blob, or `undefined` when it is missing. Bytes that do not hash to
   * the blob's name (disk damage, an edit) are an error naming the blob: they are never returned.
   */
  read(sha256: string, what: string): Uint8Array | undefined {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.path(sha256));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if (sha256Of(bytes) !== sha256) {
      throw new JpError(
        `blob ${this.displayPath(sha256)} is damaged: its content does not match its sha256 name (${what}); jp will not use it — restore the file from a backup, or fork the conversation before that turn`,
        { code: 'damaged_blob' },
      );
    }
    return bytes;
  }
}

async function writeDurably(file: string, bytes: Uint8Array): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(tmp, 'w', 0o644);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
