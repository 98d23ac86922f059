import { isTextResource, mimeEssence, type BlobResource, type LoadedResource } from '@jp/core';
import { toBase64 } from '../shared/base64.ts';
import { blobAsText } from '../shared/blob-as-text.ts';
import { mediaRefusal } from '../shared/media-limits.ts';
import type { DocumentBlockParam, ImageBlockParam } from './anthropic-types.ts';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageMediaType = (typeof IMAGE_TYPES)[number];

export type AnthropicResourceConversion =
  | { block: DocumentBlockParam | ImageBlockParam; warning?: undefined }
  | { block?: undefined; warning: string };

export function anthropicDocumentTitle(resource: LoadedResource): string {
  return resource.title ?? resource.name ?? resource.uri;
}

/**
 * A document's `context`: its canonical URI, so the model can name it exactly to
 * `refresh_resource` (the title is a display name, and the URI is not derivable from it).
 */
export function anthropicDocumentContext(resource: LoadedResource): string {
  return `uri: ${resource.uri}`;
}

function documentNaming(resource: LoadedResource): { title: string; context: string } {
  return { title: anthropicDocumentTitle(resource), context: anthropicDocumentContext(resource) };
}

/** The image media type Anthropic takes for this MIME type, if it takes it. */
export function anthropicImageType(mimeType: string | undefined): ImageMediaType | undefined {
  const type = mimeEssence(mimeType);
  return IMAGE_TYPES.find((image) => image === type);
}

function textDocument(resource: LoadedResource, data: string): DocumentBlockParam {
  return { type: 'document', source: { type: 'text', media_type: 'text/plain', data }, ...documentNaming(resource) };
}

/** A PDF as a base64 `document`, which Claude reads natively. */
export function anthropicPdfDocument(resource: BlobResource): DocumentBlockParam {
  return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: toBase64(resource.blob) }, ...documentNaming(resource) };
}

export function anthropicImage(mediaType: ImageMediaType, resource: BlobResource): ImageBlockParam {
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: toBase64(resource.blob) } };
}

/**
 * One attached resource as an Anthropic content block:
 * - text → `document` with a text source (`formatted` when the producer gave one, else the text);
 * - a blob with a `formatted` form (a producer's rendering, or a deduplication reference) → a
 *   text `document` of it: the bytes are not sent;
 * - PDF → `document` with a base64 source; JPEG/PNG/GIF/WebP → `image` with a base64 source;
 * - any other blob → a text `document` of its UTF-8 text for textual MIME types; otherwise it is
 *   skipped with a warning.
 * Documents are titled `title ?? name ?? uri` and carry `uri: <canonical uri>` as their `context`.
 */
export function convertResourceToAnthropicBlock(resource: LoadedResource): AnthropicResourceConversion {
  if (isTextResource(resource)) return { block: textDocument(resource, resource.formatted ?? resource.text) };
  if (resource.formatted !== undefined) return { block: textDocument(resource, resource.formatted) };
  const mimeType = mimeEssence(resource.mimeType);
  const imageType = anthropicImageType(mimeType);
  if (mimeType === 'application/pdf' || imageType !== undefined) {
    const refusal = mediaRefusal(resource, imageType === undefined ? 'pdf' : 'image', 'anthropic');
    if (refusal !== undefined) return { warning: refusal };
    return { block: imageType === undefined ? anthropicPdfDocument(resource) : anthropicImage(imageType, resource) };
  }
  const text = blobAsText(resource);
  if (text !== undefined) return { block: textDocument(text, text.text) };
  return { warning: `${resource.mimeType ?? 'application/octet-stream'} is not supported by anthropic; skipped ${resource.uri}` };
}
