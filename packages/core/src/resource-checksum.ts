import { hash } from 'node:crypto';
import { isTextResource, type Resource } from './resource.ts';
import { utf8SourceBytes, utf8SourceOf, type Utf8Source } from './utf8-text-resource.ts';

/** The raw content of a resource: the UTF-8 bytes of `text`, or the blob. Never `formatted`. */
export function resourceBytes(resource: Resource): Uint8Array {
  const source = utf8SourceOf(resource);
  if (source !== undefined) return utf8SourceBytes(source);
  return isTextResource(resource) ? Buffer.from(resource.text, 'utf8') : resource.blob;
}

/** A resource's sha256 and raw size. */
interface Digest {
  sha256: string;
  byteLength: number;
}

/** A digest recorded apart from the content, and the content value it was computed for. */
interface RecordedDigest extends Digest {
  content: Content;
}

/**
 * Digests per resource object. Several stages need a resource's sha256 in one run (deduplication,
 * the echo model, the blob store) and a tree of attachments holds ~100 MB: computing it once, from
 * the bytes the producer already has, saves re-encoding and re-hashing the content per stage.
 * An entry counts only while the object still holds the very content value it was made for.
 */
const digests = new WeakMap<Resource, RecordedDigest>();

/** What a digest belongs to: a lazy text's source (never decoded or loaded for this), the text, or the blob. */
type Content = string | Uint8Array | Utf8Source;

/** Whether the content is a lazy text's source (which may carry its digest). */
function isSource(content: Content): content is Utf8Source {
  return typeof content === 'object' && !(content instanceof Uint8Array);
}

function contentOf(resource: Resource): Content {
  return utf8SourceOf(resource) ?? (isTextResource(resource) ? resource.text : resource.blob);
}

/**
 * The digest known for the resource, while it still holds the content it was made for: the one
 * its lazy text's source carries, else one recorded for the resource.
 */
function knownDigest(resource: Resource, content: Content): Digest | undefined {
  if (isSource(content) && content.sha256 !== undefined && content.byteLength !== undefined) return content as Digest;
  const known = digests.get(resource);
  return known !== undefined && known.content === content ? known : undefined;
}

function digestOf(resource: Resource): Digest {
  const content = contentOf(resource);
  const known = knownDigest(resource, content);
  if (known !== undefined) return known;
  const bytes = bytesOf(content);
  const digest = { content, sha256: sha256Hex(bytes), byteLength: bytes.byteLength };
  digests.set(resource, digest);
  return digest;
}

/**
 * Records the digest of a resource whose raw bytes its producer has just hashed (a file read, a
 * blob verified on load), so later stages do not hash the content again. `sha256` and
 * `byteLength` must describe exactly `resourceBytes(resource)`; the resource must not be changed
 * afterwards (resources are values: every stage makes a new object instead).
 */
export function rememberResourceDigest(resource: Resource, digest: { sha256: string; byteLength: number }): void {
  const content = contentOf(resource);
  if (isSource(content)) {
    // A lazy text's source holds it: one object, no entry apart.
    content.sha256 = digest.sha256;
    content.byteLength = digest.byteLength;
    return;
  }
  digests.set(resource, { content, sha256: digest.sha256, byteLength: digest.byteLength });
}

/** Hex sha256 over the raw content of a resource (computed once per resource object). */
export function resourceSha256(resource: Resource): string {
  return digestOf(resource).sha256;
}

/** The raw content's size in bytes (the UTF-8 length of `text`). */
export function resourceByteLength(resource: Resource): number {
  const content = contentOf(resource);
  const known = knownDigest(resource, content);
  if (known !== undefined) return known.byteLength;
  return typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : bytesOf(content).byteLength;
}

function bytesOf(content: Content): Uint8Array {
  if (typeof content === 'string') return Buffer.from(content, 'utf8');
  return content instanceof Uint8Array ? content : utf8SourceBytes(content);
}

/** One call, no Hash object: for the many small files of a tree, the object cost more than the hashing. */
export function sha256Hex(data: Uint8Array | string): string {
  return hash('sha256', data, 'hex');
}
