import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, ftruncateSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A small tmpfs of a test's own, to run the binary out of disk space. Mounting needs root (CI
 * runs as root): a failure to mount is an error, never a skipped test.
 */
export class SmallTmpfs {
  readonly dir: string;
  readonly #filler: string;

  constructor(size: string) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'jp-tmpfs-'));
    this.#filler = path.join(this.dir, 'filler');
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', this.dir], { stdio: 'pipe' });
    } catch (error) {
      rmSync(this.dir, { recursive: true, force: true });
      throw new Error(`these tests need a small tmpfs of their own, which only root can mount: ${String(error)}`);
    }
  }

  freeBytes(): number {
    const stat = statfsSync(this.dir);
    return stat.bavail * stat.bsize;
  }

  /** Fills the file system with a filler file, then gives back `bytes` (whole pages); returns what is free. */
  leaveFree(bytes: number): number {
    const fd = openSync(this.#filler, 'w');
    try {
      const chunk = Buffer.alloc(256 * 1024, 1);
      try {
        for (;;) if (writeSync(fd, chunk) === 0) break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
      ftruncateSync(fd, Math.max(0, fstatSync(fd).size - bytes));
    } finally {
      closeSync(fd);
    }
    return this.freeBytes();
  }

  /** Removes the filler: the space is back. */
  free(): void {
    rmSync(this.#filler, { force: true });
  }

  unmount(): void {
    execFileSync('umount', [this.dir], { stdio: 'pipe' });
    rmSync(this.dir, { recursive: true, force: true });
  }
}
