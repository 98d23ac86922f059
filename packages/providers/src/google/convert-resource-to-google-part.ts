import { isTextResource, mimeEssence, type LoadedResource } from '@jp/core';
import { toBase64 } from '../shared/base64.ts';
import { blobAsText } from '../shared/blob-as-text.ts';
import { mediaRefusal } from '../shared/media-limits.ts';
import { resourceToXml } from '../shared/resource-xml.ts';
import type { Part } from './google-types.ts';

/**
 * Binary types Gemini reads natively from `inlineData`, as its documentation names them
 * (images, PDF, audio, video). The key is what a resource may carry, the value the name sent:
 * common aliases (`audio/mpeg`, `video/quicktime`, …) are sent under Gemini's documented name.
 */
const INLINE_TYPES: ReadonlyMap<string, string> = new Map([
  ['image/png', 'image/png'],
  ['image/jpeg', 'image/jpeg'],
  ['image/jpg', 'image/jpeg'],
  ['image/webp', 'image/webp'],
  ['image/heic', 'image/heic'],
  ['image/heif', 'image/heif'],
  ['application/pdf', 'application/pdf'],
  ['audio/wav', 'audio/wav'],
  ['audio/wave', 'audio/wav'],
  ['audio/x-wav', 'audio/wav'],
  ['audio/mp3', 'audio/mp3'],
  ['audio/mpeg', 'audio/mp3'],
  ['audio/aiff', 'audio/aiff'],
  ['audio/x-aiff', 'audio/aiff'],
  ['audio/aac', 'audio/aac'],
  ['audio/x-aac', 'audio/aac'],
  ['audio/ogg', 'audio/ogg'],
  ['audio/flac', 'audio/flac'],
  ['audio/x-flac', 'audio/flac'],
  ['video/mp4', 'video/mp4'],
  ['video/mpeg', 'video/mpeg'],
  ['video/mpg', 'video/mpg'],
  ['video/mov', 'video/mov'],
  ['video/quicktime', 'video/mov'],
  ['video/avi', 'video/avi'],
  ['video/x-msvideo', 'video/avi'],
  ['video/x-flv', 'video/x-flv'],
  ['video/webm', 'video/webm'],
  ['video/wmv', 'video/wmv'],
  ['video/x-ms-wmv', 'video/wmv'],
  ['video/3gpp', 'video/3gpp'],
]);

export type GoogleResourceConversion = { part: Part; warning?: undefined } | { part?: undefined; warning: string };

/** The MIME type Gemini takes inline for this one, if it takes it. */
export function googleInlineType(mimeType: string | undefined): string | undefined {
  return INLINE_TYPES.get(mimeEssence(mimeType));
}

/**
 * One attached resource as a Gemini part:
 * - text → a text part holding `resourceToXml` (identity in attributes, content in CDATA);
 * - a blob with a `formatted` form (a rendering, or a deduplication reference) → an XML text part
 *   of it: the bytes are not sent;
 * - images, PDF, audio and video Gemini reads → `inlineData` with the base64 bytes;
 * - any other blob → an XML text part of its UTF-8 text for textual MIME types; otherwise it is
 *   skipped with a warning.
 */
export function convertResourceToGooglePart(resource: LoadedResource): GoogleResourceConversion {
  if (isTextResource(resource)) return { part: { text: resourceToXml(resource) } };
  // A producer's rendering, or a deduplication reference: the text is sent instead of the bytes.
  if (resource.formatted !== undefined) return { part: { text: resourceToXml(resource) } };
  const inlineType = googleInlineType(resource.mimeType);
  if (inlineType !== undefined) {
    const kind = inlineType === 'application/pdf' ? 'pdf' : inlineType.startsWith('image/') ? 'image' : undefined;
    const refusal = kind === undefined ? undefined : mediaRefusal(resource, kind, 'google');
    if (refusal !== undefined) return { warning: refusal };
    return { part: { inlineData: { mimeType: inlineType, data: toBase64(resource.blob) } } };
  }
  const text = blobAsText(resource);
  if (text !== undefined) return { part: { text: resourceToXml(text) } };
  return { warning: `${resource.mimeType ?? 'application/octet-stream'} is not supported by google; skipped ${resource.uri}` };
}
