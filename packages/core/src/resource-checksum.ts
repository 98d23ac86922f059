import { createHash } from 'node:crypto';
import { isTextResource, type Resource } from './resource.ts';

/** The raw content of a resource: the UTF-8 bytes of `text`, or the blob. Never `formatted`. */
export function resourceBytes(resource: Resource): Uint8Array {
  return isTextResource(resource) ? Buffer.from(resource.text, 'utf8') : resource.blob;
}

/** Hex sha256 over the raw content of a resource. */
export function resourceSha256(resource: Resource): string {
  return sha256Hex(resourceBytes(resource));
}

export function resourceByteLength(resource: Resource): number {
  return isTextResource(resource) ? Buffer.byteLength(resource.text, 'utf8') : resource.blob.byteLength;
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
