import type { Resource, TextResource } from './resource.ts';

/**
 * The UTF-8 content behind a resource made by `textResourceFromUtf8`: the bytes, or a way to get
 * them (stored content read only when a stage asks). The object itself is the content's identity
 * for digests, so asking who a digest belongs to never loads anything.
 */
export interface Utf8Source {
  bytes: Uint8Array | undefined;
  /** Called as a method of the source (`source.load()`): a class may implement it. */
  load: (() => Uint8Array) | undefined;
  /**
   * The content's digest, when its producer knows it (a reader thread hashed the file): what
   * `resourceSha256` and `resourceByteLength` answer, with no digest recorded apart.
   */
  sha256?: string | undefined;
  byteLength?: number | undefined;
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
  return textResourceFromSource(fields, source);
}

/**
 * `textResourceFromUtf8` with the source made by the caller: the bytes, a `load` method, and the
 * digest if it is known. A tree's reader makes one object per file this way (its spooled content,
 * which knows where its bytes lie and their sha256) instead of a source, a closure and a digest.
 */
export function textResourceFromSource(fields: Omit<TextResource, 'text'>, source: Utf8Source): TextResource {
  // Object literals, as a reader's own would be, and one getter for all defined on them: a tree's
  // thousands of resources share one shape with fast properties. (A getter written in the literal
  // is a new function per object, and V8 keeps such objects as dictionaries: three times slower to
  // make, four times slower to read, measured.)
  const base = !plainFields(fields)
    ? { ...fields }
    : fields.description === undefined
      ? { uri: fields.uri, name: fields.name, mimeType: fields.mimeType }
      : { uri: fields.uri, name: fields.name, description: fields.description, mimeType: fields.mimeType };
  const resource = Object.defineProperty(base, 'text', TEXT) as TextResource;
  sources.set(resource, source);
  return resource;
}

/** `text` until it is first read: enumerable, and replaced by the decoded string then. */
const TEXT: PropertyDescriptor = { enumerable: true, configurable: true, get: decodeText };

/**
 * The getter of `text`, one for every resource (the source is found by the resource): its first
 * read fixes the text for good, so the bytes and the text can never disagree.
 */
function decodeText(this: TextResource): string {
  const source = sources.get(this);
  // Only an object inheriting the getter (Object.create) gets here without a source of its own.
  if (source === undefined) throw new TypeError('text read through an object that is not the resource itself');
  const bytes = utf8SourceBytes(source);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  Object.defineProperty(this, 'text', { value: text, enumerable: true, writable: false, configurable: false });
  return text;
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
