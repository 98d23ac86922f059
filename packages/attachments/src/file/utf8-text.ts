import { isUtf8 } from 'node:buffer';

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Whether content is text: valid UTF-8 without a NUL byte. Works on a `Buffer` view of the bytes
 * (no copy), whose `indexOf` and `isUtf8` are native.
 */
export function isUtf8Text(bytes: Uint8Array): boolean {
  const buffer = bufferOf(bytes);
  return buffer.indexOf(0) === -1 && isUtf8(buffer);
}

/** Valid UTF-8 as a string. A byte-order mark is kept, so the text's UTF-8 bytes are exactly the file's. */
export function utf8String(bytes: Uint8Array): string {
  return bufferOf(bytes).toString('utf8');
}

/** The content as text when it is valid UTF-8 without a NUL byte, else `undefined` (binary). */
export function decodeText(bytes: Uint8Array): string | undefined {
  return isUtf8Text(bytes) ? utf8String(bytes) : undefined;
}

/** The largest length `<= bytes.length` that does not end inside a UTF-8 sequence. */
export function utf8Boundary(bytes: Uint8Array): number {
  const end = bytes.length;
  // Walk back over at most three continuation bytes (10xxxxxx) to the lead byte of the last sequence.
  let lead = end - 1;
  while (lead >= 0 && end - lead <= 3 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
  if (lead < 0) return end;
  const byte = bytes[lead] ?? 0;
  const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return lead + length > end ? lead : end;
}
