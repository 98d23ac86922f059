import type { LoadedResource } from '@jp/core';
import { sha256Of } from '../store/blob-sha256.ts';

/**
 * `--attach -`: stdin as a resource. Its URI is `stdin:<sha256>` — content-addressed, since there
 * is no source to name — and it cannot be refreshed or declared for later.
 */
export function stdinResource(bytes: Uint8Array): LoadedResource {
  const uri = `stdin:${sha256Of(bytes)}`;
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  try {
    const decoded = text.decode(bytes);
    if (!decoded.includes('\u0000')) return { uri, name: 'stdin', mimeType: 'text/plain', text: decoded };
  } catch {
    // Not UTF-8: a blob.
  }
  return { uri, name: 'stdin', mimeType: 'application/octet-stream', blob: bytes };
}
