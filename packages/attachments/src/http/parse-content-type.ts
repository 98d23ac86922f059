import { MIMEType } from 'node:util';

/** A `Content-Type` header reduced to what jp uses. */
export interface ContentType {
  /** `type/subtype`, lower-case, without parameters. */
  essence: string;
  /** The `charset` parameter as sent (a WHATWG encoding label), if any. */
  charset?: string;
}

/**
 * Parses a `Content-Type` header with Node's WHATWG MIME parser (quoted parameters, case of
 * type and parameter names). An absent, empty or malformed header gives `undefined`.
 */
export function parseContentType(header: string | null | undefined): ContentType | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  let parsed: MIMEType;
  try {
    parsed = new MIMEType(header.trim());
  } catch {
    return undefined;
  }
  const charset = parsed.params.get('charset')?.trim();
  return charset === undefined || charset === '' ? { essence: parsed.essence } : { essence: parsed.essence, charset };
}
