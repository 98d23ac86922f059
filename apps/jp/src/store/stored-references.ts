import { SHA256_PATTERN } from './blob-sha256.ts';

/*
 * Reading the references of stored lines (RFD 008, the stored form in stored-resource.ts), with
 * no schema: what a reader of raw lines needs (`jp conversation grep`) without loading zod.
 */

export type Json = Record<string, unknown>;

/** A resource's JSON inside a stored event, and the block holding it in a tool result. */
export interface Slot {
  resource: Json;
  block: Json | undefined;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The resources of a stored event's JSON (attachments, tool-result blocks), with where they land once parsed. */
export function resourceSlots(json: Json): Slot[] {
  const slots: Slot[] = [];
  if (json.type === 'chat_request' && Array.isArray(json.resources)) {
    for (const resource of json.resources) if (isJson(resource)) slots.push({ resource, block: undefined });
  } else if (json.type === 'tool_call_response' && Array.isArray(json.content)) {
    for (const block of json.content) {
      if (isJson(block) && block.type === 'resource' && isJson(block.resource)) slots.push({ resource: block.resource, block });
    }
  }
  return slots;
}

/** A malformed reference: the line is damaged, whatever the blobs hold. */
export class BadReference extends Error {}

export interface BlobReference {
  sha256: string;
  size: number;
}

/** The reference `value` holds, `undefined` when it holds none (inline content). */
export function blobReference(value: Json, field: string): BlobReference | undefined {
  if (!('$blob' in value)) return undefined;
  const { $blob: sha256, size } = value;
  if (typeof sha256 !== 'string' || !SHA256_PATTERN.test(sha256)) throw new BadReference(`${field}: "$blob" must be a sha256 in lowercase hex`);
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw new BadReference(`${field}: "size" must be a whole number of bytes`);
  return { sha256, size };
}

/** The content reference of a stored resource and how to decode it. */
export function contentReference(resource: Json): (BlobReference & { encoding: 'text' | 'binary' }) | undefined {
  const ref = blobReference(resource, 'resource');
  if (ref === undefined) return undefined;
  if ('text' in resource || 'blob' in resource) throw new BadReference('resource: a "$blob" reference and inline "text"/"blob" exclude each other');
  const { encoding } = resource;
  if (encoding !== 'text' && encoding !== 'binary') throw new BadReference('resource: "encoding" must be "text" or "binary"');
  return { ...ref, encoding };
}

/** A `formatted` field's reference, when it is one (it may also be an inline string). */
export function formattedReference(holder: Json): BlobReference | undefined {
  const value = holder.formatted;
  return isJson(value) ? (blobReference(value, 'formatted') ?? badFormatted()) : undefined;
}

function badFormatted(): never {
  throw new BadReference('formatted: must be a string or {"$blob", "size"}');
}

/** Removes the reference fields of a resource's JSON, leaving its MCP fields and extensions. */
export function dropReferenceFields(resource: Json): void {
  delete resource.$blob;
  delete resource.size;
  delete resource.encoding;
}
