import { isTextResource, type BlobResource, type Resource } from '@jp/core';
import { resourceToXml } from '../shared/resource-xml.ts';

/** The image types OpenAI's vision input (and the chat-completions vendors') take. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** MIME types whose bytes are text, so a blob carrying them can be sent as a text resource. */
const TEXTUAL = /^(text\/.+|application\/(json|xml|yaml|x-yaml|toml|javascript|x-sh|sql)|.+\+(json|xml))$/;

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

/** The MIME type without parameters, lower-cased (`IMAGE/JPEG; q=1` → `image/jpeg`). */
export function mimeEssence(mimeType: string | undefined): string {
  return (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** `data:<mime>;base64,<bytes>`. */
export function dataUrl(mimeType: string, bytes: Uint8Array): string {
  return `data:${mimeType};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`;
}

/** The last path segment of the resource's name (or URI), for vendors that want a file name. */
export function resourceFilename(resource: Resource, fallback: string): string {
  const source = resource.name ?? resource.uri;
  const segment = source.split(/[/\\]/).filter((part) => part !== '').at(-1);
  return segment === undefined || segment === '' ? fallback : segment;
}

/** UTF-8 text of a blob, or `undefined` when the bytes are not valid UTF-8. */
function decodeUtf8(blob: BlobResource['blob']): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(blob);
  } catch {
    return undefined;
  }
}

/** A blob with a textual MIME type (or a `formatted` form) as the XML of a text resource. */
function blobAsText(resource: BlobResource): string | undefined {
  const { blob: _blob, ...rest } = resource;
  if (resource.formatted !== undefined) return resourceToXml({ ...rest, text: '' });
  const text = TEXTUAL.test(mimeEssence(resource.mimeType)) ? decodeUtf8(resource.blob) : undefined;
  return text === undefined ? undefined : resourceToXml({ ...rest, text });
}

/**
 * Classifies one attached resource for an OpenAI-style vendor. Text resources, blobs with a
 * `formatted` form (whatever their type) and UTF-8 blobs of textual MIME types become XML; other images become data URLs;
 * PDFs become data URLs when `pdf` is true (the vendor takes file parts); anything else is
 * skipped with `"<mime> is not supported by <vendor>; skipped <uri>"`.
 */
export function resourceWireForm(resource: Resource, vendor: string, options: { pdf: boolean }): ResourceWireForm {
  if (isTextResource(resource)) return { type: 'text', xml: resourceToXml(resource) };
  // A producer's rendering, or a deduplication reference: the text is sent instead of the bytes.
  if (resource.formatted !== undefined) return { type: 'text', xml: resourceToXml(resource) };
  const mimeType = mimeEssence(resource.mimeType);
  if (IMAGE_TYPES.has(mimeType)) return { type: 'image', dataUrl: dataUrl(mimeType, resource.blob) };
  if (mimeType === 'application/pdf' && options.pdf) {
    return { type: 'pdf', filename: resourceFilename(resource, 'document.pdf'), dataUrl: dataUrl(mimeType, resource.blob) };
  }
  const xml = blobAsText(resource);
  if (xml !== undefined) return { type: 'text', xml };
  return { type: 'skip', warning: `${resource.mimeType ?? 'application/octet-stream'} is not supported by ${vendor}; skipped ${resource.uri}` };
}
