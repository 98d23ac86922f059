import { isTextualMimeType, type BlobResource, type TextResource } from '@jp/core';

/**
 * A blob whose MIME type names text, as the text resource it is, so a vendor that cannot take the
 * type as a file is still sent its content; `undefined` for other types and for bytes that are not
 * valid UTF-8.
 */
export function blobAsText(resource: BlobResource): TextResource | undefined {
  if (!isTextualMimeType(resource.mimeType)) return undefined;
  const { blob, ...metadata } = resource;
  try {
    return { ...metadata, text: new TextDecoder('utf-8', { fatal: true }).decode(blob) };
  } catch {
    return undefined;
  }
}
