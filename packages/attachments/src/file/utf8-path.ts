import { isUtf8 } from 'node:buffer';
import fs from 'node:fs/promises';
import { AttachmentError } from '@jp/core';

/**
 * Node decodes file names as UTF-8 and turns every byte that is not UTF-8 into U+FFFD (�), so a
 * path holding one no longer names its file. Only names containing U+FFFD need a closer look.
 */
export const REPLACEMENT = '\ufffd';

/** A file name's bytes for a message: UTF-8 runs as text, other bytes as `\xNN`. */
export function describeBytes(bytes: Uint8Array): string {
  let out = '';
  let start = 0;
  const flush = (end: number) => {
    if (end > start) out += Buffer.from(bytes.subarray(start, end)).toString('utf8');
  };
  for (let index = 0; index < bytes.length; ) {
    const length = sequenceLength(bytes, index);
    if (length > 0) {
      index += length;
      continue;
    }
    flush(index);
    out += `\\x${(bytes[index] ?? 0).toString(16).padStart(2, '0')}`;
    index += 1;
    start = index;
  }
  flush(bytes.length);
  return out;
}

/** Length of the valid UTF-8 sequence starting at `index`, or 0 when the byte there starts none. */
function sequenceLength(bytes: Uint8Array, index: number): number {
  for (const length of [1, 2, 3, 4]) {
    if (index + length > bytes.length) return 0;
    const slice = bytes.subarray(index, index + length);
    if (isUtf8(slice)) return length;
  }
  return 0;
}

/** Why a non-UTF-8 name is refused, for the end of a message. */
export const UTF8_ONLY = 'jp attaches only files whose names are valid UTF-8 (names go into JSON and URIs), so rename it';

/** A path the user typed that is missing and shows U+FFFD: most likely bytes that were not UTF-8. */
export function missingNonUtf8Error(input: string): AttachmentError {
  return new AttachmentError(input, `no such file or directory: ${input}; the path has bytes that are not valid UTF-8 (shown as ${REPLACEMENT}), and ${UTF8_ONLY}`, {
    code: 'file_name_not_utf8',
  });
}

/**
 * Checks a real path Node returned as a string: when it shows U+FFFD, asks again for the raw
 * bytes and throws when they are not UTF-8. The error names only `label` (what the user typed).
 */
export async function assertUtf8RealPath(absolute: string, realPath: string, input: string, label: string): Promise<void> {
  if (!realPath.includes(REPLACEMENT)) return;
  const raw = await fs.realpath(absolute, { encoding: 'buffer' }).catch(() => undefined);
  if (raw !== undefined && !isUtf8(raw)) {
    throw new AttachmentError(input, `${label} resolves to a path that is not valid UTF-8; ${UTF8_ONLY}`, { code: 'file_name_not_utf8' });
  }
}
