import { createHash } from 'node:crypto';

/** A blob's name: the lowercase hex sha256 of its content. */
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
