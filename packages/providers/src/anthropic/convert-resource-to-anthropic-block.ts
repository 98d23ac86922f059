import { isTextResource, type BlobResource, type Resource } from '@jp/core';
import type { DocumentBlockParam, ImageBlockParam } from './anthropic-types.ts';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageMediaType = (typeof IMAGE_TYPES)[number];

/** MIME types whose bytes are text, so a blob carrying them can be sent as a text document. */
const TEXTUAL = /^(text\/.+|application\/(json|xml|yaml|x-yaml|toml|javascript|x-sh|sql)|.+\+(json|xml))$/;

export type AnthropicResourceConversion =
  | { block: DocumentBlockParam | ImageBlockParam; warning?: undefined }
  | { block?: undefined; warning: string };

export function anthropicDocumentTitle(resource: Resource): string {
  return resource.title ?? resource.name ?? resource.uri;
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The MIME type without parameters, lower-cased (`Text/Plain; charset=utf-8` → `text/plain`). */
export function mimeEssence(mimeType: string | undefined): string {
  return (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The image media type Anthropic takes for this MIME type, if it takes it. */
export function anthropicImageType(mimeType: string | undefined): ImageMediaType | undefined {
  const type = mimeEssence(mimeType);
  return IMAGE_TYPES.find((image) => image === type);
}

function textDocument(resource: Resource, data: string): DocumentBlockParam {
  return { type: 'document', source: { type: 'text', media_type: 'text/plain', data }, title: anthropicDocumentTitle(resource) };
}

/** UTF-8 text of a blob, or `undefined` when the bytes are not valid UTF-8. */
function decodeUtf8(blob: BlobResource['blob']): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(blob);
  } catch {
    return undefined;
  }
}

/**
 * One attached resource as an Anthropic content block:
 * - text → `document` with a text source (`formatted` when the producer gave one, else the text);
 * - a blob with a `formatted` form (a producer's rendering, or a deduplication reference) → a
 *   text `document` of it: the bytes are not sent;
 * - PDF → `document` with a base64 source; JPEG/PNG/GIF/WebP → `image` with a base64 source;
 * - any other blob → a text `document` of its UTF-8 text for textual MIME types; otherwise it is
 *   skipped with a warning.
 * Documents are titled `title ?? name ?? uri`.
 */
export function convertResourceToAnthropicBlock(resource: Resource): AnthropicResourceConversion {
  if (isTextResource(resource)) return { block: textDocument(resource, resource.formatted ?? resource.text) };
  if (resource.formatted !== undefined) return { block: textDocument(resource, resource.formatted) };
  const mimeType = mimeEssence(resource.mimeType);
  if (mimeType === 'application/pdf') {
    const source = { type: 'base64', media_type: 'application/pdf', data: toBase64(resource.blob) } as const;
    return { block: { type: 'document', source, title: anthropicDocumentTitle(resource) } };
  }
  const imageType = anthropicImageType(mimeType);
  if (imageType !== undefined) {
    return { block: { type: 'image', source: { type: 'base64', media_type: imageType, data: toBase64(resource.blob) } } };
  }
  const text = TEXTUAL.test(mimeType) ? decodeUtf8(resource.blob) : undefined;
  if (text !== undefined) return { block: textDocument(resource, text) };
  return { warning: `${resource.mimeType ?? 'application/octet-stream'} is not supported by anthropic; skipped ${resource.uri}` };
}
