import fs, { constants } from 'node:fs';
import { AttachmentError, type LoadedResource } from '@jp/core';
import { binaryMimeType, loadFileMimeTypes, type FileMimeTypes } from './file-mime-type.ts';
import { fsAttachmentError, notRegularFileError } from './fs-error.ts';
import { HARD_MAX_BYTES, overHardMax, oversizeReadLength, readLimitOf, type OversizeContext } from './oversize-read-length.ts';
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

/** The first read of a file whose stat size is 0, which may hold anything (`/proc`, `/sys`). */
const FIRST_READ_OF_SIZE_0 = 16 * 1024;

/**
 * Reads on from `start` (the bytes read so far) to the end of the file or `cap` bytes, whichever
 * comes first. The stat size is a hint, not a limit: files of `/proc` say 0 whatever they hold,
 * and a file may grow while it is read. A file of stat size 0 is read until a read returns
 * nothing; any other ends at a read that returns fewer bytes than asked for once its stat size
 * is reached (a regular file's end), so a file of the size it says takes one read.
 */
function readUpTo(file: FileToRead, fd: number, statSize: number, cap: number, start: Uint8Array = new Uint8Array(0)): Uint8Array {
  let buffer = new Uint8Array(Math.min(cap, Math.max(start.byteLength + 1, statSize > 0 ? statSize + 1 : FIRST_READ_OF_SIZE_0)));
  buffer.set(start);
  let filled = start.byteLength;
  try {
    while (filled < cap) {
      if (filled === buffer.byteLength) {
        const larger = new Uint8Array(Math.min(cap, buffer.byteLength * 2));
        larger.set(buffer);
        buffer = larger;
      }
      const asked = buffer.byteLength - filled;
      const bytesRead = fs.readSync(fd, buffer, filled, asked, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (statSize > 0 && filled >= statSize && bytesRead < asked) break;
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
export function resourceFromBytes(
  file: FileToRead,
  bytes: Uint8Array,
  read: { size: number; truncation?: string | undefined; sizeUnknown?: boolean },
  mimeTypes: FileMimeTypes,
): LoadedResource {
  const cut = read.truncation !== undefined;
  const kept = cut ? bytes.subarray(0, utf8Boundary(bytes)) : bytes;
  const { text: textType, media } = mimeTypes.of(file.realPath);
  const isText = media === undefined && isUtf8Text(kept);
  const raw = isText ? kept : bytes;
  const of = read.sizeUnknown === true ? `more than ${read.size}` : String(read.size);
  const description = cut ? `truncated: the first ${raw.byteLength} of ${of} bytes (${read.truncation})` : undefined;
  const base = { uri: file.uri, name: file.name, ...(description === undefined ? {} : { description }) };
  if (isText) return { ...base, mimeType: textType, text: utf8String(raw) };
  return { ...base, mimeType: media ?? binaryMimeType(file.realPath), blob: raw };
}

/**
 * Reads one regular file into a resource (see `resourceFromBytes`). The size policy first decides
 * on the size `fstat` gives, before anything is read. What it lets through whole is read to the
 * end of the file, one byte past what is taken without a decision: a file that holds more than
 * its stat size said (a `/proc` file says 0) and more than that is put to the policy again, as a
 * size known only to be over the limit.
 */
export async function readFileResource(file: FileToRead, ctx: OversizeContext): Promise<LoadedResource> {
  const mimeTypes = await loadFileMimeTypes();
  const { fd, size } = openRegular(file);
  try {
    const planned = await oversizeReadLength(size, file.input, file.label, ctx);
    if (planned.truncation !== undefined) {
      return resourceFromBytes(file, readUpTo(file, fd, size, planned.length), { size, truncation: planned.truncation }, mimeTypes);
    }
    const most = planned.length > ctx.limits.maxResourceBytes ? HARD_MAX_BYTES : readLimitOf(ctx);
    const bytes = readUpTo(file, fd, size, most + 1);
    if (bytes.byteLength <= most) return resourceFromBytes(file, bytes, { size: bytes.byteLength }, mimeTypes);
    if (most === HARD_MAX_BYTES) throw overHardMax(bytes.byteLength, file.input, file.label, true);
    const over = await oversizeReadLength(bytes.byteLength, file.input, file.label, ctx, { sizeUnknown: true });
    if (over.truncation !== undefined) {
      const read = { size: ctx.limits.maxResourceBytes, truncation: over.truncation, sizeUnknown: true };
      return resourceFromBytes(file, bytes.subarray(0, over.length), read, mimeTypes);
    }
    // Allowed whole: the rest, up to what one resource can hold.
    const whole = readUpTo(file, fd, size, HARD_MAX_BYTES + 1, bytes);
    if (whole.byteLength > HARD_MAX_BYTES) throw overHardMax(whole.byteLength, file.input, file.label, true);
    return resourceFromBytes(file, whole, { size: whole.byteLength }, mimeTypes);
  } finally {
    fs.closeSync(fd);
  }
}
