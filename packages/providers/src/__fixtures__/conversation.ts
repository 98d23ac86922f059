// Builders for conversation events in tests: fixed timestamps, resources parsed through core's schema.
import { isBlobResource, isTextResource, loadSchemas, type BlobResource, type ContentBlock, type ConversationEvent, type LoadedResource, type Resource, type ResourceJson, type TextResource } from '@jp/core';

const { resourceFromJson } = await loadSchemas();

const timestamp = '2025-01-01T00:00:00.000Z';

export function resource(json: ResourceJson): LoadedResource {
  return resourceFromJson(json);
}

export function textResource(uri: string, text: string, extra: Partial<ResourceJson> = {}): TextResource {
  const parsed = resourceFromJson({ uri, mimeType: 'text/plain', text, ...extra } as ResourceJson);
  if (!isTextResource(parsed)) throw new Error(`${uri}: the extra fields replaced the text`);
  return parsed;
}

export function blobResource(uri: string, mimeType: string, bytes: Uint8Array | string, extra: Partial<ResourceJson> = {}): BlobResource {
  const blob = Buffer.from(bytes).toString('base64');
  const parsed = resourceFromJson({ uri, mimeType, blob, ...extra } as ResourceJson);
  if (!isBlobResource(parsed)) throw new Error(`${uri}: the extra fields replaced the blob`);
  return parsed;
}

/** A minimal PDF header's bytes: enough to check base64 round trips. */
export const PDF_BYTES = new Uint8Array(Buffer.from('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<<>>\nendobj\n', 'latin1'));
/** The 8-byte PNG signature plus a few bytes. */
export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

export const turnStart = (): ConversationEvent => ({ type: 'turn_start', timestamp });
export const chatRequest = (content: string, resources: Resource[] = []): ConversationEvent => ({
  type: 'chat_request',
  timestamp,
  content,
  resources,
});
export const chatResponse = (message: string): ConversationEvent => ({ type: 'chat_response', timestamp, message });
export const reasoning = (text: string): ConversationEvent => ({ type: 'chat_response', timestamp, reasoning: text });
export const toolCall = (id: string, name: string, args: Record<string, unknown>): ConversationEvent => ({
  type: 'tool_call_request',
  timestamp,
  id,
  name,
  arguments: args,
});
export const toolResult = (id: string, content: ContentBlock[], isError = false): ConversationEvent => ({
  type: 'tool_call_response',
  timestamp,
  id,
  content,
  isError,
});
export const configDelta = (delta: Record<string, unknown>): ConversationEvent => ({ type: 'config_delta', timestamp, delta });

/** A whole turn: turn_start, the request, then whatever followed it. */
export function turn(query: string, resources: Resource[] = [], ...after: ConversationEvent[]): ConversationEvent[] {
  return [turnStart(), chatRequest(query, resources), ...after];
}
