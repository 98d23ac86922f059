import { createHash } from 'node:crypto';
import path from 'node:path';

/** `external:` + 64 lowercase hex digits + `/` + a file name (no slash, not empty). */
const EXTERNAL_URI = /^external:([0-9a-f]{64})\/([^/]+)$/;

/**
 * The canonical URI of a file outside the workspace (RFD D03): `external:` + the sha256 hex of
 * its canonical parent directory (the real path, as UTF-8) + `/` + its file name verbatim. The
 * same file attached twice gives one URI; files of one name in two directories give two. The
 * path itself cannot be recovered from the URI. `realPath` must be absolute, real and UTF-8.
 */
export function externalUri(realPath: string): string {
  const parent = path.dirname(realPath);
  const digest = createHash('sha256').update(parent, 'utf8').digest('hex');
  return `external:${digest}/${path.basename(realPath)}`;
}

/** Whether a string has the scheme `external:` (case-insensitive, as schemes are). */
export function hasExternalScheme(input: string): boolean {
  return /^external:/i.test(input);
}

/** The file name of a well-formed `external:` URI, else `undefined`. */
export function externalFileName(uri: string): string | undefined {
  return EXTERNAL_URI.exec(uri)?.[2];
}
