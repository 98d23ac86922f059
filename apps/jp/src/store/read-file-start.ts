import { closeSync, openSync, readSync } from 'node:fs';

/** The first `maxBytes` of a file (fewer when it is shorter). */
export function readStart(file: string, maxBytes: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const bytes = Buffer.allocUnsafe(maxBytes);
    let filled = 0;
    while (filled < maxBytes) {
      const read = readSync(fd, bytes, filled, maxBytes - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return bytes.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}
