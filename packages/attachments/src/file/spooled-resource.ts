import { rememberResourceDigest, textResourceFromUtf8, type Resource } from '@jp/core';
import type { ContentSpool, SpooledBlob } from '../handler.ts';
import { binaryMimeType, type FileMimeTypes } from './file-mime-type.ts';
import type { FileToRead } from './read-file-resource.ts';

/**
 * The resource of a file whose content a reader wrote to the spool (`ContentSpool`) instead of
 * keeping it: a text is decoded from the spooled bytes only if a stage reads it, so a tree that
 * only the store and the echo model see never comes back into memory; a blob (rare in a tree) is
 * read back at once. Its digest is the reader's. `utf8` is the reader's check of the whole file.
 */
export function resourceFromSpool(file: FileToRead, blob: SpooledBlob, read: { size: number; utf8: boolean }, spool: ContentSpool, mimeTypes: FileMimeTypes): Resource {
  const { text: textType, media } = mimeTypes.of(file.realPath);
  const isText = media === undefined && read.utf8;
  let resource: Resource;
  if (isText) resource = textResourceFromUtf8({ uri: file.uri, name: file.name, mimeType: textType }, () => spool.read(blob));
  else {
    // A plain Uint8Array, as every reader's blob is, whatever the spool's reads return (a Buffer).
    const bytes = spool.read(blob);
    resource = { uri: file.uri, name: file.name, mimeType: media ?? binaryMimeType(file.realPath), blob: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  }
  rememberResourceDigest(resource, { sha256: blob.sha256, byteLength: blob.size });
  return resource;
}
