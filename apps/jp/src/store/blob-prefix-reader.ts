import { JpError, type RefResource } from '@jp/core';
import type { BlobStore } from './blob-store.ts';

/**
 * Reads at most a given number of bytes of stored content, for a view that shows a part of it
 * (`BlobStore.readPrefix`). A missing blob is an error naming it, as anywhere jp reads one.
 * `reads` counts the blobs asked for.
 */
export class BlobPrefixReader {
  reads = 0;

  constructor(
    readonly blobs: BlobStore,
    readonly conversation: string,
  ) {}

  read(resource: RefResource, maxBytes: number): { bytes: Uint8Array; complete: boolean } {
    this.reads++;
    const { sha256 } = resource.ref;
    const found = this.blobs.readPrefix(sha256, maxBytes, `conversation ${this.conversation}, ${resource.uri}`);
    if (found === undefined) {
      throw new JpError(
        `conversation ${this.conversation} refers to blob ${this.blobs.displayPath(sha256)} (${resource.uri}), which is missing; restore it from a backup, or fork the conversation before that turn`,
        { code: 'missing_blob' },
      );
    }
    return found;
  }
}
