import * as z from 'zod';
import { lazily } from './lazily.ts';

/** Base64 text in JSON, bytes in memory (built on first use, `lazily`). */
export const base64BytesSchema = lazily(() => {
  // Bytes in memory. `z.instanceof(Uint8Array)` would type them `Uint8Array<ArrayBuffer>`, which
  // rejects Node's `Buffer` (backed by `ArrayBufferLike`) that file reads return; any view will do.
  const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, { error: 'expected bytes (a Uint8Array)' });
  return z.codec(z.base64(), bytes, {
    decode: (text) => new Uint8Array(Buffer.from(text, 'base64')),
    encode: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'),
  });
});
