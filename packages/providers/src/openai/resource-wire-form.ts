import { isTextResource, mimeEssence, type LoadedResource } from '@jp/core';
import { toBase64 } from '../shared/base64.ts';
import { blobAsText } from '../shared/blob-as-text.ts';
import { mediaRefusal } from '../shared/media-limits.ts';
import { resourceToXml } from '../shared/resource-xml.ts';

/** The image types OpenAI's vision input (and the chat-completions vendors') take. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * How a resource travels in an OpenAI-style request, before it is spelled as a vendor's part:
 * - `text`: one XML element (`resourceToXml`) carrying uri, name, title and mimeType;
 * - `image`: a `data:` URL of a PNG, JPEG, GIF or WebP;
 * - `pdf`: a `data:` URL plus a file name;
 * - `skip`: something the vendor cannot take, with the warning to show.
 */
export type ResourceWireForm =
  | { type: 'text'; xml: string }
  | { type: 'image'; dataUrl: string }
  | { type: 'pdf'; filename: string; dataUrl: string }
  | { type: 'skip'; warning: string };

/** `data:<mime>;base64,<bytes>`. */
export function dataUrl(mimeType: string, bytes: Uint8Array): string {
  return `data:${mimeType};base64,${toBase64(bytes)}`;
}

/** The last path segment of the resource's name (or URI), for vendors that want a file name. */
export function resourceFilename(resource: LoadedResource, fallback: string): string {
  const source = resource.name ?? resource.uri;
  const segment = source.split(/[/\\]/).filter((part) => part !== '').at(-1);
  return segment === undefined || segment === '' ? fallback : segment;
}

/**
 * Classifies one attached resource for an OpenAI-style vendor. Text resources, blobs with a
 * `formatted` form (whatever their type) and UTF-8 blobs of textual MIME types become XML; other
 * images become data URLs; PDFs become data URLs when `pdf` is true (the vendor takes file parts);
 * anything else is skipped with `"<mime> is not supported by <vendor>; skipped <uri>"`.
 */
export function resourceWireForm(resource: LoadedResource, vendor: string, options: { pdf: boolean }): ResourceWireForm {
  if (isTextResource(resource)) return { type: 'text', xml: resourceToXml(resource) };
  // A producer's rendering, or a deduplication reference: the text is sent instead of the bytes.
  if (resource.formatted !== undefined) return { type: 'text', xml: resourceToXml(resource) };
  const mimeType = mimeEssence(resource.mimeType);
  const kind = IMAGE_TYPES.has(mimeType) ? 'image' : mimeType === 'application/pdf' && options.pdf ? 'pdf' : undefined;
  if (kind !== undefined) {
    const refusal = mediaRefusal(resource, kind, vendor);
    if (refusal !== undefined) return { type: 'skip', warning: refusal };
    if (kind === 'image') return { type: 'image', dataUrl: dataUrl(mimeType, resource.blob) };
    return { type: 'pdf', filename: resourceFilename(resource, 'document.pdf'), dataUrl: dataUrl(mimeType, resource.blob) };
  }
  const text = blobAsText(resource);
  if (text !== undefined) return { type: 'text', xml: resourceToXml(text) };
  return { type: 'skip', warning: `${resource.mimeType ?? 'application/octet-stream'} is not supported by ${vendor}; skipped ${resource.uri}` };
}
