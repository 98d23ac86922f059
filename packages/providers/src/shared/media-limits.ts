import type { BlobResource } from '@jp/core';

/** The largest image and PDF, in bytes as sent (base64), a vendor documents for one request. */
interface MediaLimits {
  image?: { bytes: number; source: string };
  pdf?: { bytes: number; source: string };
}

const MB = 1024 * 1024;

/**
 * Each vendor's documented limits:
 * - Anthropic: an image's base64 data at most 5 MB (platform.claude.com/docs/en/build-with-claude/vision,
 *   "image exceeds 5 MB maximum"); a request at most 32 MB, which bounds a PDF
 *   (platform.claude.com/docs/en/build-with-claude/pdf-support);
 * - OpenAI: 50 MB of images per request and 50 MB per file (developers.openai.com/api/docs/guides/images-vision,
 *   developers.openai.com/api/docs/guides/pdf-files);
 * - Gemini: 20 MB of inline data per request (ai.google.dev/gemini-api/docs/image-understanding,
 *   ai.google.dev/gemini-api/docs/document-processing).
 * OpenRouter and Ollama document no limit of their own.
 */
const LIMITS: Readonly<Record<string, MediaLimits>> = {
  anthropic: {
    image: { bytes: 5 * MB, source: 'platform.claude.com/docs/en/build-with-claude/vision' },
    pdf: { bytes: 32 * MB, source: 'platform.claude.com/docs/en/build-with-claude/pdf-support' },
  },
  openai: {
    image: { bytes: 50 * MB, source: 'developers.openai.com/api/docs/guides/images-vision' },
    pdf: { bytes: 50 * MB, source: 'developers.openai.com/api/docs/guides/pdf-files' },
  },
  google: {
    image: { bytes: 20 * MB, source: 'ai.google.dev/gemini-api/docs/image-understanding' },
    pdf: { bytes: 20 * MB, source: 'ai.google.dev/gemini-api/docs/document-processing' },
  },
};

/** Whether the attachment handler cut the resource to the size policy's limit (its description says so). */
export function wasCut(resource: { description?: string | undefined }): boolean {
  return resource.description?.startsWith('truncated: ') === true;
}

/**
 * Why an image or PDF may not go to `vendor` as one, or undefined when it may: a blob the size
 * policy cut is no valid image or PDF, and one over the vendor's documented limit would be refused.
 * The caller leaves it out with this warning, before anything is sent; it is the same on every
 * request, so the conversation's prefix does not change.
 */
export function mediaRefusal(resource: BlobResource, kind: 'image' | 'pdf', vendor: string): string | undefined {
  const what = kind === 'image' ? 'image' : 'PDF';
  if (wasCut(resource)) return `${resource.uri} was cut by the size policy, so it is not a whole ${what}; not sent (${resource.description})`;
  const limit = LIMITS[vendor]?.[kind];
  if (limit === undefined) return undefined;
  const base64 = Math.ceil(resource.blob.byteLength / 3) * 4;
  if (base64 <= limit.bytes) return undefined;
  return `${resource.uri} is ${(base64 / MB).toFixed(1)} MB as sent, over ${vendor}'s ${limit.bytes / MB} MB ${what} limit (${limit.source}); not sent`;
}
