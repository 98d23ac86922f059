import { fenceLanguage } from './mime-language.ts';
import type { LoadedResource } from './resource.ts';
import { isTextResource } from './resource-content.ts';

/** A fence of backticks longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * The text a model sees for a resource: `formatted` when the producer supplied it, otherwise the
 * text in a fenced code block tagged with the language of its MIME type. Binary content has no
 * textual form; providers send it as a native part, and this gives a one-line placeholder.
 */
export function formatResource(resource: LoadedResource): string {
  if (resource.formatted !== undefined) return resource.formatted;
  if (!isTextResource(resource)) {
    return `[binary resource ${resource.uri}: ${resource.mimeType ?? 'application/octet-stream'}, ${resource.blob.byteLength} bytes]`;
  }
  const fence = fenceFor(resource.text);
  const body = resource.text.endsWith('\n') ? resource.text : `${resource.text}\n`;
  return `${fence}${fenceLanguage(resource.mimeType)}\n${body}${fence}`;
}
