/**
 * Registered `application/` types whose content is text. The file handler lets one of these name a
 * file's type ahead of its language; everything else asks `isTextualMimeType`.
 */
export const TEXTUAL_APPLICATION_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/ld+json',
  'application/manifest+json',
  'application/schema+json',
  'application/xml',
  'application/xhtml+xml',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/typescript',
  'application/toml',
  'application/yaml',
  'application/x-yaml',
  'application/sql',
  'application/graphql',
  'application/x-sh',
  'application/x-shellscript',
  'application/x-ndjson',
  'application/x-www-form-urlencoded',
]);

/** The MIME type without parameters, lower-cased (`Text/Plain; charset=utf-8` → `text/plain`). */
export function mimeEssence(mimeType: string | undefined): string {
  return (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Whether a MIME type names text: `text/*`, the types above, and any `+json`, `+xml` or `+yaml`. */
export function isTextualMimeType(mimeType: string | undefined): boolean {
  const essence = mimeEssence(mimeType);
  return essence.startsWith('text/') || TEXTUAL_APPLICATION_TYPES.has(essence) || /\+(?:json|xml|yaml)$/.test(essence);
}
