import type { Resource, TextResource } from './resource.ts';

/** The UTF-8 bytes behind resources made by `textResourceFromUtf8`. */
const sources = new WeakMap<Resource, Uint8Array>();

/**
 * A text resource whose `text` is decoded from `utf8` the first time it is read. `text` is an
 * ordinary enumerable property to every reader (spread, JSON, schemas, providers): the first read
 * decodes and replaces the getter with the string. Until then the resource holds only the bytes,
 * so a tree of files whose content no stage reads as text — the echo model, the blob store, which
 * both want the bytes — never becomes 100 MB of strings for the garbage collector to copy.
 *
 * `utf8` must be valid UTF-8 and must never change afterwards: it is the snapshot. Readers that
 * reuse a buffer must decode at once instead. `text` cannot be assigned (resources are values).
 */
export function textResourceFromUtf8(fields: Omit<TextResource, 'text'>, utf8: Uint8Array): TextResource {
  const resource = { ...fields } as TextResource;
  Object.defineProperty(resource, 'text', {
    enumerable: true,
    configurable: true,
    get(this: TextResource): string {
      const text = Buffer.from(utf8.buffer, utf8.byteOffset, utf8.byteLength).toString('utf8');
      // Fixed from now on, like the bytes: the two can never disagree.
      Object.defineProperty(this, 'text', { value: text, enumerable: true, writable: false, configurable: false });
      return text;
    },
  });
  sources.set(resource, utf8);
  return resource;
}

/** The UTF-8 bytes a resource was made from by `textResourceFromUtf8`; `undefined` for any other resource. */
export function utf8SourceOf(resource: Resource): Uint8Array | undefined {
  return sources.get(resource);
}
