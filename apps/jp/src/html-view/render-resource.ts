import { isRefResource, isTextResource, resourceBytes, resourceEncoding, utf8Text, type Resource } from '@jp/core';
import { FOLD_CAP_BYTES, type ContentReader } from './content-reader.ts';
import { escapeHtml } from './escape-html.ts';
import type { SnapshotStatus } from './resource-status.ts';

/** Raster images shown inline (an SVG is text, and shown as such). */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

const bytesLabel = (n: number) => `${n.toLocaleString('en-US')} bytes`;

/** The content, capped: stored content through `reader`, inline content (older lines) as it is. */
function contentOf(resource: Resource, reader: ContentReader, maxBytes: number): { bytes: Uint8Array; complete: boolean } {
  if (isRefResource(resource)) return reader.read(resource, maxBytes);
  const bytes = resourceBytes(resource);
  return bytes.byteLength <= maxBytes ? { bytes, complete: true } : { bytes: bytes.subarray(0, maxBytes), complete: false };
}

function body(resource: Resource, status: SnapshotStatus, reader: ContentReader): string {
  if (status.kind === 'deduplicated') return `<p class="dim">Same content as the snapshot in <a href="#turn-${status.sameAsTurn}">turn ${status.sameAsTurn}</a>; not repeated here.</p>`;
  const mime = resource.mimeType ?? '';
  if (resourceEncoding(resource) === 'text' || isTextResource(resource)) {
    const { bytes, complete } = contentOf(resource, reader, FOLD_CAP_BYTES);
    const note = complete ? '' : ` (the first ${bytesLabel(bytes.byteLength)} shown)`;
    return `<details><summary>text, ${bytesLabel(status.size)}${note}</summary><pre>${escapeHtml(utf8Text(bytes))}</pre></details>`;
  }
  if (INLINE_IMAGES.has(mime)) {
    const { bytes } = contentOf(resource, reader, status.size);
    return `<img alt="${escapeHtml(resource.name ?? resource.uri)}" src="data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}">`;
  }
  return '';
}

/**
 * One snapshot: URI, name, MIME type, size, sha256 prefix and status, then its content — text
 * folded (up to `FOLD_CAP_BYTES`), a raster image inline, other binaries as their size and hash
 * only. A deduplicated snapshot points at the earlier one instead of being read again.
 */
export function renderResource(resource: Resource, status: SnapshotStatus, reader: ContentReader): string {
  const newer = status.newerIn === undefined ? '' : ` by the newer content in turn ${status.newerIn}`;
  const superseded = status.supersededFrom === undefined ? '' : ` <span class="status superseded">superseded from turn ${status.supersededFrom}${newer}</span>`;
  const name = resource.name !== undefined && resource.name !== resource.uri ? ` <span class="name">${escapeHtml(resource.name)}</span>` : '';
  const head =
    `<p class="res-head"><code class="uri">${escapeHtml(resource.uri)}</code>${name} ` +
    `<span class="dim">${escapeHtml(resource.mimeType ?? 'unknown type')} · ${bytesLabel(status.size)} · sha256 ${status.sha256.slice(0, 12)}</span> ` +
    `<span class="status ${status.kind}">${status.kind}</span>${superseded}</p>`;
  return `<div class="resource">${head}${body(resource, status, reader)}</div>`;
}
