import { Buffer } from 'node:buffer';
import type { ReadSnapshot } from './conversation-reader.ts';

/** MCP text or blob resource contents. */
export type SnapshotContents =
  | { uri: string; mimeType?: string; text: string; _meta: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta: Record<string, unknown> };

/** `_meta` keys of a served snapshot: the URI it was attached under and the turn it first appears in. */
export const ORIGINAL_URI_META = 'computer.jp/originalUri';
export const TURN_META = 'computer.jp/turn';

/**
 * A stored snapshot as MCP resource contents: its bytes unchanged, text as text and binary as a
 * base64 blob (as it was stored), its original MIME type, and its original URI and turn in `_meta`.
 * `shownUri` is the original URI as the server may show it (no absolute path). Pure.
 */
export function snapshotContents(uri: string, snapshot: ReadSnapshot, shownUri: string): SnapshotContents {
  const { resource, turn, bytes } = snapshot;
  const _meta = { [ORIGINAL_URI_META]: shownUri, [TURN_META]: turn };
  const mime = resource.mimeType === undefined ? {} : { mimeType: resource.mimeType };
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (resource.ref.encoding === 'text') return { uri, ...mime, text: buffer.toString('utf8'), _meta };
  return { uri, ...mime, blob: buffer.toString('base64'), _meta };
}
