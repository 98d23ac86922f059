import type { Resource, TextResource } from './resource.ts';

/**
 * The UTF-8 content behind a resource made by `textResourceFromUtf8`: the bytes, or a way to get
 * them (stored content read only when a stage asks). The object itself is the content's identity
 * for digests, so asking who a digest belongs to never loads anything.
 */
export interface Utf8Source {
  bytes: Uint8Array | undefined;
  load: (() => Uint8Array) | undefined;
}

const sources = new WeakMap<Resource, Utf8Source>();

/** The bytes of a source, loaded on first use and kept. */
export function utf8SourceBytes(source: Utf8Source): Uint8Array {
  source.bytes ??= source.load!();
  return source.bytes;
}

/**
 * A text resource whose `text` is decoded from UTF-8 bytes the first time it is read. `text` is
 * an ordinary enumerable property to every reader (spread, JSON, schemas, providers): the first
 * read decodes and replaces the getter with the string. Until then the resource holds only the
 * bytes, so a tree of files whose content no stage reads as text — the echo model, the blob
 * store, which both want the bytes or only their digest — never becomes 100 MB of strings for
 * the garbage collector to copy.
 *
 * `utf8` is the bytes, or a function returning them (content already stored, read only if a
 * stage needs it: see the file handler's content cache). They must be valid UTF-8 and must never
 * change afterwards: they are the snapshot. Readers that reuse a buffer must decode at once
 * instead. `text` cannot be assigned (resources are values).
 */
export function textResourceFromUtf8(fields: Omit<TextResource, 'text'>, utf8: Uint8Array | (() => Uint8Array)): TextResource {
  const source: Utf8Source = typeof utf8 === 'function' ? { bytes: undefined, load: utf8 } : { bytes: utf8, load: undefined };
  // The getter's first read fixes the text for good: the bytes and the text can never disagree.
  const decode = (resource: TextResource): string => {
    const bytes = utf8SourceBytes(source);
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    Object.defineProperty(resource, 'text', { value: text, enumerable: true, writable: false, configurable: false });
    return text;
  };
  let resource: TextResource;
  if (!plainFields(fields)) {
    resource = Object.defineProperty({ ...fields } as TextResource, 'text', { enumerable: true, configurable: true, get: function (this: TextResource) { return decode(this); } });
  } else if (fields.description === undefined) {
    // Object literals, as a reader's own would be: a tree's thousands of resources share one shape.
    resource = { uri: fields.uri, name: fields.name, mimeType: fields.mimeType, get text(): string { return decode(this); } };
  } else {
    resource = { uri: fields.uri, name: fields.name, description: fields.description, mimeType: fields.mimeType, get text(): string { return decode(this); } };
  }
  sources.set(resource, source);
  return resource;
}

const PLAIN_KEYS = new Set(['uri', 'name', 'description', 'mimeType']);

/** Whether the fields are the usual few of a file's resource: `uri`, `name`, `mimeType` and perhaps `description`. */
function plainFields(fields: Omit<TextResource, 'text'>): fields is { uri: string; name: string; mimeType: string; description?: string } {
  for (const key in fields) if (!PLAIN_KEYS.has(key) || (fields as Record<string, unknown>)[key] === undefined) return false;
  return typeof fields.name === 'string' && typeof fields.mimeType === 'string' && (fields.description === undefined || typeof fields.description === 'string');
}

/** The UTF-8 source of a resource made by `textResourceFromUtf8`; `undefined` for any other resource. */
export function utf8SourceOf(resource: Resource): Utf8Source | undefined {
  return sources.get(resource);
}
