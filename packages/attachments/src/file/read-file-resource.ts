import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { AttachmentError, type Resource } from '@jp/core';
import type { AttachmentLimits } from '../handler.ts';
import { binaryMimeType, textMimeType } from './file-mime-type.ts';
import { fsAttachmentError } from './fs-error.ts';
import { decodeText, utf8Boundary } from './utf8-text.ts';
import { fileUri, resourceName } from './workspace-path.ts';

/** One file to read: where it really is and how to name it. */
export interface FileToRead {
  /** Absolute real path. */
  realPath: string;
  /** Workspace-relative POSIX path of `realPath`. */
  relative: string;
  /** The declaration or input it came from (`AttachmentError.attachment`). */
  input: string;
  /** How errors name the file: the input itself, or `src/a.rs (from src/)` for a directory or glob. */
  label: string;
}

const SIZE_SETTING = 'conversation.attachment.size_policy';

export function notRegularFileError(input: string, label: string): AttachmentError {
  return new AttachmentError(input, `${label} is not a regular file (a FIFO, socket or device); attach a regular file or directory`, {
    code: 'file_not_regular',
  });
}

/** Reads up to `length` bytes from the start; fewer if the file shrank meanwhile. */
async function readPrefix(handle: fs.FileHandle, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.slice(0, filled);
}

/** How many bytes to read under the size policy; throws for `reject`. */
function bytesToRead(file: FileToRead, size: number, limits: AttachmentLimits): number {
  if (size <= limits.maxResourceBytes || limits.sizePolicy === 'allow') return size;
  if (limits.sizePolicy === 'truncate') return limits.maxResourceBytes;
  throw new AttachmentError(
    file.input,
    `${file.label} is ${size} bytes, over the limit of ${limits.maxResourceBytes} bytes; set ${SIZE_SETTING} to "truncate" or "allow" to attach it anyway`,
    { code: 'file_too_large' },
  );
}

/**
 * Reads one regular file into a resource: text when the content is UTF-8 without NUL bytes,
 * else a blob. The size comes from `fstat` before anything is read, and the file is opened
 * non-blocking, so a FIFO swapped in after the caller's checks cannot hang the read.
 */
export async function readFileResource(file: FileToRead, limits: AttachmentLimits): Promise<Resource> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file.realPath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fsAttachmentError(file.input, file.label, error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegularFileError(file.input, file.label);
    const length = bytesToRead(file, stats.size, limits);
    const bytes = await readPrefix(handle, length).catch((error: unknown) => {
      throw fsAttachmentError(file.input, file.label, error);
    });
    const truncated = length < stats.size;
    const kept = truncated ? bytes.subarray(0, utf8Boundary(bytes)) : bytes;
    const text = decodeText(kept);
    const base = { uri: fileUri(file.realPath), name: resourceName(file.relative) };
    const content =
      text !== undefined
        ? { ...base, mimeType: await textMimeType(file.realPath), text }
        : { ...base, mimeType: binaryMimeType(file.realPath), blob: bytes };
    if (!truncated) return content;
    const keptBytes = text !== undefined ? kept.length : bytes.length;
    return {
      ...content,
      description: `truncated: the first ${keptBytes} of ${stats.size} bytes (${SIZE_SETTING} is "truncate", limit ${limits.maxResourceBytes} bytes)`,
    };
  } finally {
    await handle.close();
  }
}
