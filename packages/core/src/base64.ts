import * as z from 'zod';

/**
 * Bytes in memory, base64 text in JSON. Any `Uint8Array` view is accepted (`z.instanceof` would
 * reject Node's `Buffer`, which file reads return).
 */
export const Base64BytesSchema = z.codec(
  z.base64(),
  z.custom<Uint8Array>((value) => value instanceof Uint8Array, { error: 'expected bytes (a Uint8Array)' }),
  {
    decode: (text) => new Uint8Array(Buffer.from(text, 'base64')),
    encode: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64'),
  },
);
