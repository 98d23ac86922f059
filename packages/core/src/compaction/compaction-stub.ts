import type { Resource, TextResource } from '../resource.ts';
import { isRefResource, resourceByteLength } from '../resource-content.ts';

/** Where a compacted resource had been delivered: attached in a turn, or returned by a tool call. */
export interface StubOrigin {
  turn: number;
  toolCallId?: string | undefined;
}

/**
 * The one line a model is sent instead of a compacted resource's content. It names what the content
 * was (URI, MIME type, size, digest, where it came in), so the model can tell which file it was and
 * ask for it again; seed RFD 065 keeps this metadata so deduplication can still identify the resource.
 */
export function compactedResourceText(resource: Resource, origin: StubOrigin): string {
  const facts = [resource.mimeType ?? 'application/octet-stream', `${resourceByteLength(resource)} bytes`];
  if (isRefResource(resource)) facts.push(`sha256 ${resource.ref.sha256}`);
  const where = origin.toolCallId === undefined ? `attached in turn ${origin.turn}` : `returned by tool call ${origin.toolCallId} in turn ${origin.turn}`;
  return `[compacted: ${resource.uri} (${facts.join(', ')}), ${where}; its content is no longer in this conversation — refresh_resource reads it again]`;
}

/**
 * The resource as a compacted turn holds it: its URI, MIME type and names kept, the content
 * replaced by `compactedResourceText`. The stub is inline text, not a content reference, so
 * deduplication never takes it for a delivery: a later copy of the same content is sent in full.
 */
export function compactedResource(resource: Resource, origin: StubOrigin): TextResource {
  const text = compactedResourceText(resource, origin);
  const out: TextResource = { uri: resource.uri, text, formatted: text };
  if (resource.mimeType !== undefined) out.mimeType = resource.mimeType;
  if (resource.name !== undefined) out.name = resource.name;
  if (resource.title !== undefined) out.title = resource.title;
  return out;
}

/** What a compacted tool result becomes: its name, call id and error status stay. */
export function compactedToolResultText(name: string, id: string, isError: boolean): string {
  return `[compacted: the ${isError ? 'error' : 'result'} of ${name} (call ${id}) is no longer in this conversation]`;
}
