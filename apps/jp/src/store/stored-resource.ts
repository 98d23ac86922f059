import { isRefResource, JpError, loadSchemas, resourceMetadataJson, type ChatRequestEvent, type ConversationEvent, type RefResource, type Resource, type ToolCallResponseEvent } from '@jp/core';
import { sha256Of, type BlobContent } from './blob-store.ts';
import { resourceSlots, type Json } from './stored-references.ts';
import type { TurnContent } from './turn-content.ts';

const { eventToJson, serializeEvent } = await loadSchemas();

/*
 * The stored form of resources (RFD 008). In events.jsonl a resource keeps its MCP fields and
 * jp's extensions, but its content is a reference to a blob:
 *
 *   {"uri":"file:///w/a.txt","mimeType":"text/plain","name":"a.txt","$blob":"<sha256>","size":1234,"encoding":"text"}
 *
 * `encoding` says how the bytes become the in-memory resource: "text" (UTF-8 → `text`) or
 * "binary" (→ `blob`). In memory the reference is the resource's `ref`. A `formatted`
 * presentation (on a resource, or on a tool result's resource block) is stored the same way, as
 * `"formatted":{"$blob":"<sha256>","size":N}`. Lines written before blobs existed, or edited by
 * hand, carry `text`/`blob`/`formatted` inline and still load.
 */

/** Payloads to store before a line referring to them is appended, by sha256; their bytes are made only if the store lacks them. */
export type Payloads = Map<string, BlobContent>;

/** A reference to `bytes`, which go into `payloads` unless this turn stored them before its model call. */
function reference(bytes: Uint8Array, payloads: Payloads, content?: TurnContent): { $blob: string; size: number } {
  const sha256 = sha256Of(bytes);
  if (content?.storedEarly(sha256) !== true) payloads.set(sha256, bytes);
  return { $blob: sha256, size: bytes.byteLength };
}

/** The resource staged (its content a reference), its content and `formatted` put into `payloads` when the store may lack them. */
function stagedWithPayloads(given: Resource, payloads: Payloads, content: TurnContent): { resource: RefResource; formatted: { $blob: string; size: number } | undefined } {
  const resource = content.stage(given);
  if (!isRefResource(resource)) throw new Error('internal error: a staged resource has its content inline');
  const formatted = resource.formatted === undefined ? undefined : reference(Buffer.from(resource.formatted, 'utf8'), payloads, content);
  const { sha256, size } = resource.ref;
  if (!payloads.has(sha256) && !content.storedEarly(sha256)) payloads.set(sha256, { size, bytes: () => content.bytesFor(sha256) ?? lost(resource.uri, sha256) });
  return { resource, formatted };
}

/** A stored resource: its metadata fields, then references to its `formatted` and its content. */
function storedResource(given: Resource, payloads: Payloads, content: TurnContent): Json {
  const { resource, formatted } = stagedWithPayloads(given, payloads, content);
  const json: Json = resourceMetadataJson(resource);
  if (formatted !== undefined) json.formatted = formatted;
  const { sha256, size, encoding } = resource.ref;
  json.$blob = sha256;
  json.size = size;
  json.encoding = encoding;
  return json;
}

/**
 * The blobs storing `events` would write, without making their lines: what a turn stores before
 * its model is called (`storeBlobsEarly`).
 */
export function payloadsOf(events: readonly ConversationEvent[], content: TurnContent): Payloads {
  const payloads: Payloads = new Map();
  for (const event of events) {
    if (event.type === 'chat_request') {
      for (const resource of (event as ChatRequestEvent).resources) stagedWithPayloads(resource, payloads, content);
    } else if (event.type === 'tool_call_response') {
      for (const block of (event as ToolCallResponseEvent).content) {
        if (block.type !== 'resource') continue;
        stagedWithPayloads(block.resource, payloads, content);
        if (block.formatted !== undefined) reference(Buffer.from(block.formatted, 'utf8'), payloads, content);
      }
    }
  }
  return payloads;
}

/** Content the store lacks and nobody has any more: `jp gc` removed it while this command ran, and its file changed since. */
function lost(uri: string, sha256: string): never {
  throw new JpError(
    `the content of ${uri} (blob ${sha256}) was removed by \`jp gc\` while this command ran, and its file has changed since; run the command again`,
    { code: 'missing_blob' },
  );
}

/** One line of events.jsonl for an event, its content stored apart: the blobs to store go into `payloads`. */
export function storedLine(event: ConversationEvent, payloads: Payloads, content: TurnContent): string {
  if (event.type === 'chat_request') {
    const request = event as ChatRequestEvent;
    if (request.resources.length === 0) return serializeEvent(event);
    // The event without resources goes through the schema; the resources (thousands, for a tree)
    // are copied field by field.
    const json = eventToJson({ ...request, resources: [] });
    json.resources = request.resources.map((resource) => storedResource(resource, payloads, content));
    return JSON.stringify(json);
  }
  if (event.type === 'tool_call_response') {
    const response = event as ToolCallResponseEvent;
    if (!response.content.some((block) => block.type === 'resource')) return serializeEvent(event);
    const json = eventToJson({ ...response, content: response.content.map((block) => (block.type === 'resource' ? { type: 'text' as const, text: '' } : block)) });
    (json.content as Json[]).forEach((_stored, i) => {
      const block = response.content[i]!;
      if (block.type !== 'resource') return;
      const stored: Json = { type: 'resource', resource: storedResource(block.resource, payloads, content) };
      if (block.formatted !== undefined) stored.formatted = reference(Buffer.from(block.formatted, 'utf8'), payloads, content);
      (json.content as Json[])[i] = stored;
    });
    return JSON.stringify(json);
  }
  return serializeEvent(event);
}

/**
 * Externalises the inline content of a stored event's JSON in place (lines written before blobs,
 * or by hand): inline `text`/`blob` and `formatted` strings become references, their bytes go
 * into `payloads`. Returns whether anything changed. The line must have been validated before.
 */
export function externaliseInline(json: Json, payloads: Payloads): boolean {
  let changed = false;
  for (const { resource, block } of resourceSlots(json)) {
    if (typeof resource.text === 'string' || typeof resource.blob === 'string') {
      const text = typeof resource.text === 'string';
      const bytes = text ? Buffer.from(resource.text as string, 'utf8') : Buffer.from(resource.blob as string, 'base64');
      delete resource.text;
      delete resource.blob;
      Object.assign(resource, reference(bytes, payloads), { encoding: text ? 'text' : 'binary' });
      changed = true;
    }
    for (const holder of block === undefined ? [resource] : [resource, block]) {
      if (typeof holder.formatted !== 'string') continue;
      holder.formatted = reference(Buffer.from(holder.formatted, 'utf8'), payloads);
      changed = true;
    }
  }
  return changed;
}
