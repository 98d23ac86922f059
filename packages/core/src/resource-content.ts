import type { ContentRef } from './content-ref.ts';
import type { ContentBlock } from './content-block.ts';
import type { ChatRequestEvent, ConversationEvent, ToolCallResponseEvent } from './conversation-event.ts';
import type { BlobResource, LoadedResource, RefResource, Resource, ResourceMetadataJson, TextResource } from './resource.ts';

/*
 * Pure functions over resources. This module builds no schema (it imports only types), so code
 * that needs these and not the schemas does not load zod.
 */

export function isTextResource(resource: Resource): resource is TextResource {
  return typeof (resource as { text?: unknown }).text === 'string';
}

export function isBlobResource(resource: Resource): resource is BlobResource {
  return (resource as { blob?: unknown }).blob instanceof Uint8Array;
}

export function isRefResource(resource: Resource): resource is RefResource {
  return (resource as { ref?: unknown }).ref !== undefined;
}

const encoder = new TextEncoder();
// A byte-order mark is content: kept, so the text's UTF-8 bytes are exactly the stored ones.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The text of stored UTF-8 bytes, byte-order mark included. */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** The raw content of a loaded resource: the UTF-8 bytes of `text`, or the blob. Never `formatted`. */
export function resourceBytes(resource: LoadedResource): Uint8Array {
  return isTextResource(resource) ? encoder.encode(resource.text) : resource.blob;
}

/** How a resource's bytes become its content. */
export function resourceEncoding(resource: Resource): ContentRef['encoding'] {
  if (isRefResource(resource)) return resource.ref.encoding;
  return isTextResource(resource) ? 'text' : 'binary';
}

/** The size of the raw content in bytes (the UTF-8 length of `text`). */
export function resourceByteLength(resource: Resource): number {
  if (isRefResource(resource)) return resource.ref.size;
  return resourceBytes(resource).byteLength;
}

/**
 * The resource, when its content is here. A reference reaching a stage that reads content is a
 * bug in jp (the stage ran before `resolveResourceContent`), reported as such.
 */
export function loadedResource(resource: Resource): LoadedResource {
  if (isRefResource(resource)) throw new Error(`internal error: the content of ${resource.uri} was not loaded before it was read`);
  return resource;
}

/** The resource with its content replaced by `ref` (metadata kept). */
export function withContentRef(resource: Resource, ref: ContentRef): RefResource {
  const { text: _text, blob: _blob, ref: _ref, ...rest } = resource as Resource & { text?: unknown; blob?: unknown; ref?: unknown };
  return { ...rest, ref };
}

/**
 * The resource with its referenced content put in place: text (decoded here when given as bytes),
 * or the bytes as a blob.
 */
export function withLoadedContent(resource: RefResource, content: Uint8Array | string): LoadedResource {
  const { ref, ...rest } = resource;
  if (ref.encoding === 'text') return { ...rest, text: typeof content === 'string' ? content : utf8Text(content) };
  if (typeof content === 'string') throw new TypeError(`${resource.uri}: binary content was given as text`);
  return { ...rest, blob: content };
}

/**
 * Applies `change` to every resource of the stream — a request's attachments and the resources of
 * tool results — and returns the stream with the changed ones. Events and blocks whose resources
 * all come back as the same objects are returned as they were.
 */
export function mapResources(events: readonly ConversationEvent[], change: (resource: Resource) => Resource): ConversationEvent[] {
  return events.map((event) => {
    if (event.type === 'chat_request') {
      const request = event as ChatRequestEvent;
      const resources = request.resources.map(change);
      return resources.every((resource, i) => resource === request.resources[i]) ? event : { ...request, resources };
    }
    if (event.type === 'tool_call_response') {
      const response = event as ToolCallResponseEvent;
      const content = response.content.map((block): ContentBlock => {
        if (block.type !== 'resource') return block;
        const resource = change(block.resource);
        return resource === block.resource ? block : { ...block, resource };
      });
      return content.every((block, i) => block === response.content[i]) ? event : { ...response, content };
    }
    return event;
  });
}

/**
 * The named step between the conversation and a provider's converter: every reference to stored
 * content is replaced by the content `read` returns for it (the caller's store does the reading
 * and verifying; it may answer a text reference with the decoded text). Loaded resources pass
 * through as they are.
 */
export function resolveResourceContent(events: readonly ConversationEvent[], read: (resource: RefResource) => Uint8Array | string): ConversationEvent[] {
  return mapResources(events, (resource) => (isRefResource(resource) ? withLoadedContent(resource, read(resource)) : resource));
}

/** The JSON of a resource without its content: every field but `text`, `blob`, `ref` and `formatted`. */
/** The schema's metadata fields, in its order (a test holds the two together). */
const METADATA_KEYS: ReadonlyArray<keyof ResourceMetadataJson> = ['uri', 'mimeType', 'annotations', '_meta', 'name', 'title', 'description'];

/**
 * A resource's metadata fields, copied: a stored tree holds thousands of resources, and a schema
 * encode per resource would cost more than the rest of its line. The fields of a resource that
 * passed the schema, or that jp built, are plain JSON already.
 */
export function resourceMetadataJson(resource: Resource): ResourceMetadataJson {
  const json: Record<string, unknown> = {};
  for (const key of METADATA_KEYS) {
    const value = resource[key];
    if (value !== undefined) json[key] = value;
  }
  return json as ResourceMetadataJson;
}
