import fs, { constants } from 'node:fs';
import { AttachmentError, type LoadedResource } from '@jp/core';
import { binaryMimeType, loadFileMimeTypes, type FileMimeTypes } from './file-mime-type.ts';
import { fsAttachmentError, notRegularFileError } from './fs-error.ts';
import { oversizeReadLength, type OversizeContext } from './oversize-read-length.ts';
import { isUtf8Text, utf8Boundary, utf8String } from './utf8-text.ts';

/** One file to read: where it really is and how to identify it. */
export interface FileToRead {
  /** Absolute real path (never stored: it becomes `uri` for workspace files only). */
  realPath: string;
  /** Canonical URI: `file://` + the real path, or `external:…`. */
  uri: string;
  /** `Resource.name`: the workspace-relative path, or the file name of an external file (NFC). */
  name: string;
  /** The declaration or input it came from (`AttachmentError.attachment`). */
  input: string;
  /** How errors name the file: the input itself, or `src/a.rs (from src/)` for a directory or glob. */
  label: string;
}

/**
 * Opens a file without blocking (a FIFO swapped in after the caller's checks cannot hang the
 * open) and checks with `fstat` that it is a regular file. Synchronous on purpose: one file from
 * the page cache costs microseconds this way and a thread-pool round trip per call otherwise
 * (RFD 002); callers yield to the event loop between files.
 */
function openRegular(file: FileToRead): { fd: number; size: number } {
  let fd: number;
  try {
    fd = fs.openSync(file.realPath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fsAttachmentError(file.input, file.label, error);
  }
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw notRegularFileError(file.input, file.label);
    return { fd, size: stats.size };
  } catch (error) {
    fs.closeSync(fd);
    throw error instanceof AttachmentError ? error : fsAttachmentError(file.input, file.label, error);
  }
}

/** Reads up to `length` bytes from the start; fewer if the file shrank meanwhile. */
function readPrefix(file: FileToRead, fd: number, length: number): Uint8Array {
  const buffer = new Uint8Array(length);
  let filled = 0;
  try {
    while (filled < length) {
      const bytesRead = fs.readSync(fd, buffer, filled, length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
  } catch (error) {
    throw fsAttachmentError(file.input, file.label, error);
  }
  return buffer.subarray(0, filled);
}

/**
 * The resource for bytes read from a file: text when the content is UTF-8 without NUL bytes (and
 * the name is not that of a binary format such as PDF), else a blob. A truncated text keeps whole
 * UTF-8 sequences and says so in `description`. A blob keeps `bytes`.
 */
export function resourceFromBytes(file: FileToRead, bytes: Uint8Array, read: { size: number; truncation?: string | undefined }, mimeTypes: FileMimeTypes): LoadedResource {
  const cut = read.truncation !== undefined;
  const kept = cut ? bytes.subarray(0, utf8Boundary(bytes)) : bytes;
  const { text: textType, media } = mimeTypes.of(file.realPath);
  const isText = media === undefined && isUtf8Text(kept);
  const raw = isText ? kept : bytes;
  const description = cut ? `truncated: the first ${raw.byteLength} of ${read.size} bytes (${read.truncation})` : undefined;
  const base = { uri: file.uri, name: file.name, ...(description === undefined ? {} : { description }) };
  if (isText) return { ...base, mimeType: textType, text: utf8String(raw) };
  return { ...base, mimeType: media ?? binaryMimeType(file.realPath), blob: raw };
}

/**
 * Reads one regular file into a resource (see `resourceFromBytes`). The size comes from `fstat`
 * before anything is read, and the size policy decides how much to read.
 */
export async function readFileResource(file: FileToRead, ctx: OversizeContext): Promise<LoadedResource> {
  const mimeTypes = await loadFileMimeTypes();
  const { fd, size } = openRegular(file);
  try {
    const { length, truncation } = await oversizeReadLength(size, file.input, file.label, ctx);
    return resourceFromBytes(file, readPrefix(file, fd, length), { size, truncation }, mimeTypes);
  } finally {
    fs.closeSync(fd);
  }
}
