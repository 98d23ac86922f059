import fs, { constants } from 'node:fs';
import { AttachmentError, rememberResourceDigest, sha256Hex, textResourceFromUtf8, type Resource } from '@jp/core';
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

/** What `resourceFromBytes` needs to know besides the bytes. */
export interface ReadBytes {
  /** The file's size when opened (more than `bytes.length` when truncated). */
  size: number;
  /** Set when the policy cut the content: the words for the description. */
  truncation?: string | undefined;
  /** The bytes may be overwritten after the call (a reused buffer): content must be copied out. */
  shared: boolean;
  /** sha256 of the bytes, when the reader computed it already (used only when nothing was cut). */
  sha256?: string | undefined;
  /** Whether the bytes are UTF-8 without NUL, when the reader checked already (likewise). */
  utf8?: boolean | undefined;
}

/**
 * The resource for bytes read from a file: text when the content is UTF-8 without NUL bytes (and
 * the name is not that of a binary format such as PDF), else a blob. A truncated text keeps whole
 * UTF-8 sequences and says so in `description`. Bytes in a buffer of their own (`shared: false`)
 * stay the resource's content: a text is decoded only when read (`textResourceFromUtf8`), a blob
 * is a view of them. Its digest is remembered (`rememberResourceDigest`).
 */
export function resourceFromBytes(file: FileToRead, read: Uint8Array, how: ReadBytes, mimeTypes: FileMimeTypes): Resource {
  const cut = how.truncation !== undefined;
  const kept = cut ? read.subarray(0, utf8Boundary(read)) : read;
  const { text: textType, media } = mimeTypes.of(file.realPath);
  // The reader's check holds for exactly these bytes only when nothing was cut.
  const isText = media === undefined && (how.utf8 !== undefined && !cut ? how.utf8 : isUtf8Text(kept));
  const raw = isText ? kept : how.shared ? read.slice() : read;
  const sha256 = how.sha256 !== undefined && !cut ? how.sha256 : sha256Hex(raw);
  const description = cut ? `truncated: the first ${raw.byteLength} of ${how.size} bytes (${how.truncation})` : undefined;
  const base = { uri: file.uri, name: file.name, ...(description === undefined ? {} : { description }) };
  let resource: Resource;
  if (!isText) resource = { ...base, mimeType: media ?? binaryMimeType(file.realPath), blob: raw };
  else if (how.shared) resource = { ...base, mimeType: textType, text: utf8String(raw) };
  else resource = textResourceFromUtf8({ ...base, mimeType: textType }, raw);
  rememberResourceDigest(resource, { sha256, byteLength: raw.byteLength });
  return resource;
}

/**
 * Reads one regular file into a resource (see `resourceFromBytes`). The size comes from `fstat`
 * before anything is read, and the size policy decides how much to read.
 */
export async function readFileResource(file: FileToRead, ctx: OversizeContext): Promise<Resource> {
  const mimeTypes = await loadFileMimeTypes();
  const { fd, size } = openRegular(file);
  try {
    const { length, truncation } = await oversizeReadLength(size, file.input, file.label, ctx);
    const { bytes, shared } = readPrefix(file, fd, length);
    return resourceFromBytes(file, bytes, { size, truncation, shared }, mimeTypes);
  } finally {
    fs.closeSync(fd);
  }
}
