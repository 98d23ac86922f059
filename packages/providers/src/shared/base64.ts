/** The bytes in base64, as the vendors' inline data and `data:` URLs carry them. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
