import * as z from 'zod';

/**
 * Bytes in memory. `z.instanceof(Uint8Array)` would type them `Uint8Array<ArrayBuffer>`, which
 * rejects Node's `Buffer` (backed by `ArrayBufferLike`) that file reads return; any view will do.
 */
const BytesSchema = z.custom<Uint8Array>((value) => value instanceof Uint8Array, { error: 'expected bytes (a Uint8Array)' });

/** Base64 text in JSON, bytes in memory. */
export const Base64BytesSchema = z.codec(z.base64(), BytesSchema, {
  decode: (text) => new Uint8Array(Buffer.from(text, 'base64')),
  encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
});
