import { hash } from 'node:crypto';
import { isRefResource, resourceBytes, SHA256_PATTERN, type Resource } from '@jp/core';

export { SHA256_PATTERN };

/** A blob's name: the lowercase hex sha256 of its content. */
export function sha256Of(bytes: Uint8Array | string): string {
  return hash('sha256', bytes, 'hex');
}

/** The sha256 of a resource's raw content: its reference's, or computed from the content in hand. */
export function resourceSha256(resource: Resource): string {
  return isRefResource(resource) ? resource.ref.sha256 : sha256Of(resourceBytes(resource));
}
