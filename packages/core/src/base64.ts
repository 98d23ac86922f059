import { z } from 'zod';

/** Base64 text in JSON, bytes in memory. */
export const Base64BytesSchema = z.codec(z.base64(), z.instanceof(Uint8Array), {
  decode: (text) => new Uint8Array(Buffer.from(text, 'base64')),
  encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
});
