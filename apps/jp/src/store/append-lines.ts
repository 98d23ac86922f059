import { closeSync, fsyncSync, ftruncateSync, openSync, readSync, fstatSync, writeSync } from 'node:fs';

/**
 * Appends lines (already serialised, without newlines) in one write, then flushes. The caller
 * holds the conversation's lock and has stored the blobs the lines refer to. An incomplete last
 * line from an earlier crash is cut off first, so a new event never continues a torn one.
 */
export function appendLines(file: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const payload = Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
  const fd = openSync(file, 'a+');
  try {
    cutTornTail(fd);
    let offset = 0;
    while (offset < payload.byteLength) offset += writeSync(fd, payload, offset, payload.byteLength - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function cutTornTail(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  // Scan backwards for the last newline; everything after it is the torn line.
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.byteLength);
    const read = readSync(fd, chunk, 0, end - start, start);
    const newline = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (newline >= 0) {
      ftruncateSync(fd, start + newline + 1);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}
