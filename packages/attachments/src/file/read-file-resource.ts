import fs, { constants } from 'node:fs';
import { AttachmentError, rememberResourceDigest, sha256Hex, type Resource } from '@jp/core';
import { binaryMimeType, loadFileMimeTypes } from './file-mime-type.ts';
import { fsAttachmentError } from './fs-error.ts';
import { oversizeReadLength, type OversizeContext } from './oversize-read-length.ts';
import { decodeText, utf8Boundary } from './utf8-text.ts';

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

export function notRegularFileError(input: string, label: string): AttachmentError {
  return new AttachmentError(input, `${label} is not a regular file (a FIFO, socket or device); attach a regular file or directory`, {
    code: 'file_not_regular',
  });
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

/**
 * Files up to this size are read into one reused buffer: text is decoded out of it and a blob is
 * copied out, so a tree of small files does not leave a buffer per file for the GC. Larger files
 * get a buffer of their own, which a blob then keeps.
 */
const SCRATCH_MAX = 4 * 1024 * 1024;
let scratch = new Uint8Array(64 * 1024);

/**
 * Reads up to `length` bytes from the start; fewer if the file shrank meanwhile. The result may
 * be a view of the shared scratch buffer: use it before the next read (no `await` in between).
 */
function readPrefix(file: FileToRead, fd: number, length: number): { bytes: Uint8Array; shared: boolean } {
  const shared = length <= SCRATCH_MAX;
  if (shared && scratch.length < length) scratch = new Uint8Array(Buffer.allocUnsafeSlow(Math.max(length, scratch.length * 2)).buffer);
  const buffer = shared ? scratch : new Uint8Array(Buffer.allocUnsafeSlow(length).buffer, 0, length);
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
  return { bytes: buffer.subarray(0, filled), shared };
}

/**
 * Reads one regular file into a resource: text when the content is UTF-8 without NUL bytes
 * (and the name is not that of a binary format such as PDF), else a blob. The size comes from `fstat` before anything is read, and the size policy decides
 * how much to read (a truncated text keeps whole UTF-8 sequences and says so in `description`).
 */
export async function readFileResource(file: FileToRead, ctx: OversizeContext): Promise<Resource> {
  const mimeTypes = await loadFileMimeTypes();
  const { fd, size } = openRegular(file);
  try {
    const { length, truncation } = await oversizeReadLength(size, file.input, file.label, ctx);
    const { bytes: read, shared } = readPrefix(file, fd, length);
    const kept = truncation !== undefined ? read.subarray(0, utf8Boundary(read)) : read;
    const media = mimeTypes.media(file.realPath);
    const text = media === undefined ? decodeText(kept) : undefined;
    // Copy a blob out of the shared buffer before anything else can read into it.
    const bytes = text === undefined && shared ? read.slice() : read;
    // The raw bytes are at hand (a text's are exactly `kept`): hash them now, once, for every later stage.
    const raw = text !== undefined ? kept : bytes;
    const digest = { sha256: sha256Hex(raw), byteLength: raw.byteLength };
    const base = { uri: file.uri, name: file.name };
    const content: Resource =
      text !== undefined
        ? { ...base, mimeType: mimeTypes.text(file.realPath), text }
        : { ...base, mimeType: media ?? binaryMimeType(file.realPath), blob: bytes };
    const resource = truncation === undefined ? content : { ...content, description: `truncated: the first ${digest.byteLength} of ${size} bytes (${truncation})` };
    rememberResourceDigest(resource, digest);
    return resource;
  } finally {
    fs.closeSync(fd);
  }
}
