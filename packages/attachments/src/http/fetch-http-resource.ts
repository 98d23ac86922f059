import type { Resource } from '@jp/core';
import { DEFAULT_FETCH_LIMITS, type HandlerContext } from '../handler.ts';
import { decodeBody, isHtmlMimeType } from './decode-body.ts';
import { fetchLimited } from './fetch-limited.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { parseHttpUrl } from './normalize-http-url.ts';

/** A `Last-Modified` header as ISO 8601, or `undefined` when it is absent or not a date. */
export function lastModifiedIso(header: string | null): string | undefined {
  if (header === null || header.trim() === '') return undefined;
  const date = new Date(header.trim());
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * Fetches one http(s) URL into a resource. The URI and name are the normalised *requested* URL
 * (what the user declared, and what `covers` compares); when redirects led elsewhere the final URL
 * is in `description`. Text is decoded per the response's charset; HTML keeps the raw page in
 * `text` and a Markdown rendering in `formatted` (its `<title>` as `title`); anything else is a blob.
 */
export async function fetchHttpResource(input: string, ctx: HandlerContext, options: { userAgent: string; signal?: AbortSignal | undefined }): Promise<Resource> {
  const url = parseHttpUrl(input);
  const fetched = await fetchLimited(url, {
    limits: ctx.fetchLimits ?? DEFAULT_FETCH_LIMITS,
    userAgent: options.userAgent,
    signal: options.signal,
  });
  const { body, warnings } = decodeBody(fetched.bytes, fetched.headers.get('content-type'));
  for (const warning of warnings) ctx.logger.warn(`${url.href}: ${warning}`);

  const lastModified = lastModifiedIso(fetched.headers.get('last-modified'));
  const redirected =
    fetched.redirects === 0 ? undefined : `fetched from ${fetched.url.href} after ${fetched.redirects} redirect${fetched.redirects === 1 ? '' : 's'}`;
  const common = {
    uri: url.href,
    name: url.href,
    ...(redirected === undefined ? {} : { description: redirected }),
    mimeType: body.mimeType,
    ...(lastModified === undefined ? {} : { annotations: { lastModified } }),
  };
  if ('blob' in body) return { ...common, blob: body.blob };
  if (!isHtmlMimeType(body.mimeType)) return { ...common, text: body.text };
  const rendering = await htmlToMarkdown(body.text, fetched.url.href);
  return {
    ...common,
    ...(rendering.title === undefined ? {} : { title: rendering.title }),
    text: body.text,
    ...(rendering.markdown === undefined ? {} : { formatted: rendering.markdown }),
  };
}
