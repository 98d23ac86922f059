import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file so that readers see the old content or the new, never a mix: the bytes go to a
 * temporary file in the same directory, are flushed (unless `flush` is false: a cache, which may
 * be lost in a crash), and the file is renamed over the target.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: { flush?: boolean } = {}): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const fd = openSync(tmp, 'w', 0o644);
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      let offset = 0;
      while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset, bytes.byteLength - offset);
      if (options.flush !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/**
 * Writes `chunks` back to back as a new file that is durable when the promise resolves: temporary
 * file in the same directory, write, fsync, rename. The caller flushes the directory (once for
 * many files). A failure removes the temporary file.
 */
export async function writeFileDurably(file: string, chunks: readonly Uint8Array[]): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(tmp, 'w', 0o644);
    try {
      await handle.writev(chunks as Uint8Array[]);
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
