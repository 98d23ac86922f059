import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JpError } from '@jp/core';
import { shownPath, writeFailure, writeFully } from './write-fully.ts';

/** A handle over a real file that takes at most `most` bytes per call, as a nearly full disk does. */
function stingy(handle: FileHandle, most: number): FileHandle {
  const writev = async (buffers: Uint8Array[], position?: number) => {
    const bytes = Buffer.concat(buffers).subarray(0, most);
    return handle.writev([bytes], position).then(({ bytesWritten }) => ({ bytesWritten, buffers }));
  };
  return Object.assign(Object.create(handle) as FileHandle, { writev });
}

const chunks = [Buffer.from('abc'), Buffer.alloc(0), Buffer.from('defgh'), Buffer.from('i'), Buffer.from('jklmnopq')];

describe('writeFully', () => {
  it.each([1, 2, 3, 7, 100])('writes every byte when each call takes at most %i', async (most) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'jp-write-')), 'f');
    const handle = await open(file, 'w');
    try {
      await writeFully(stingy(handle, most), chunks);
    } finally {
      await handle.close();
    }
    expect(readFileSync(file, 'utf8')).toBe('abcdefghijklmnopq');
  });

  it('writes at a position, leaving what comes before it', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'jp-write-')), 'f');
    writeFileSync(file, '0123');
    const handle = await open(file, 'r+');
    try {
      await writeFully(stingy(handle, 4), chunks, 2);
    } finally {
      await handle.close();
    }
    expect(readFileSync(file, 'utf8')).toBe('01abcdefghijklmnopq');
  });

  it('fails as a full disk when a call takes nothing', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'jp-write-')), '.jp', 'x');
    const handle = { writev: async () => ({ bytesWritten: 0, buffers: [] }) } as unknown as FileHandle;
    const error = await writeFully(handle, chunks).catch((e: unknown) => writeFailure(e, file));
    expect(error).toBeInstanceOf(JpError);
    expect((error as JpError).message).toBe('could not write .jp/x: the disk is full; free some space and run the command again');
  });
});

describe('writeFailure', () => {
  it('makes a full disk, a used-up quota or a too large file one line naming the file, exit 1', () => {
    const file = path.join(tmpdir(), 'w', '.jp', 'blobs', 'ab', 'abcd');
    for (const [code, reason] of [
      ['ENOSPC', 'the disk is full'],
      ['EDQUOT', 'the disk quota is used up'],
      ['EFBIG', 'the file is larger than the file system allows'],
    ] as const) {
      const cause = Object.assign(new Error(code), { code });
      const error = writeFailure(cause, file) as JpError;
      expect(error).toBeInstanceOf(JpError);
      expect(error.message).toBe(`could not write .jp/blobs/ab/abcd: ${reason}; free some space and run the command again`);
      expect(error.exitCode).toBe(1);
      expect(error.code).toBe('disk_full');
      expect(error.cause).toBe(cause);
    }
  });

  it('leaves other errors as they are, and a path outside a workspace whole', () => {
    const other = Object.assign(new Error('EACCES'), { code: 'EACCES' });
    expect(writeFailure(other, '/x/.jp/y')).toBe(other);
    expect(shownPath('/etc/jp/config.toml')).toBe('/etc/jp/config.toml');
  });
});
