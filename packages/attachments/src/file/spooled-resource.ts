import { rememberResourceDigest, textResourceFromSource, type Resource, type Utf8Source } from '@jp/core';
import type { ContentSpool, SpooledBlob } from '../handler.ts';
import { binaryMimeType, type FileMimeTypes } from './file-mime-type.ts';
import type { FileToRead } from './read-file-resource.ts';

/**
 * One file's content in a spool file: where it lies (what the spool is told it holds), and the
 * source of its resource's text, which knows its digest and reads its bytes back only if a stage
 * reads the text. One object per file of a tree, where a blob record, a loader closure, a source
 * and a digest were four.
 */
export class SpooledContent implements SpooledBlob, Utf8Source {
  bytes: Uint8Array | undefined = undefined;
  readonly byteLength: number;

  constructor(
    readonly file: string,
    readonly sha256: string,
    readonly offset: number,
    readonly size: number,
    private readonly spool: ContentSpool,
  ) {
    this.byteLength = size;
  }

  load(): Uint8Array {
    return this.spool.read(this);
  }
}

/**
 * The resource of a file whose content a reader wrote to the spool (`ContentSpool`) instead of
 * keeping it: a text is decoded from the spooled bytes only if a stage reads it, so a tree that
 * only the store and the echo model see never comes back into memory; a blob (rare in a tree) is
 * read back at once. Its digest is the reader's. `utf8` is the reader's check of the whole file.
 */
export function resourceFromSpool(file: FileToRead, content: SpooledContent, read: { size: number; utf8: boolean }, mimeTypes: FileMimeTypes): Resource {
  const { text: textType, media } = mimeTypes.of(file.realPath);
  if (media === undefined && read.utf8) return textResourceFromSource({ uri: file.uri, name: file.name, mimeType: textType }, content);
  // A plain Uint8Array, as every reader's blob is, whatever the spool's reads return (a Buffer).
  const bytes = content.load();
  const resource: Resource = { uri: file.uri, name: file.name, mimeType: media ?? binaryMimeType(file.realPath), blob: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  rememberResourceDigest(resource, { sha256: content.sha256, byteLength: content.size });
  return resource;
}
