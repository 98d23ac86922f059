import { readFileSync } from 'node:fs';
import {
  isRefResource,
  JpError,
  mapResources,
  resourceBytes,
  resourceEncoding,
  withContentRef,
  type ConversationEvent,
  type RefResource,
  type Resource,
} from '@jp/core';
import type { BlobStore } from './blob-store.ts';
import { sha256Of } from './blob-sha256.ts';
import type { BlobSpool } from './blob-spool.ts';
import type { FileContents } from './file-content-cache.ts';

/**
 * The content behind the resources one command handles, by sha256. The conversation refers to
 * content by digest (`ContentRef`): `stage` turns a resource whose content is in hand into such a
 * reference and keeps the bytes; `read` gives the bytes of any reference back — staged this run,
 * spooled by a reader this run, or stored in the blob store (verified) — and, for content the
 * file cache knew, the workspace file itself when `jp gc` removed the blob meanwhile (verified
 * against the digest: the same digest is the same content). Storing a turn asks `bytesFor` for
 * what the blob store lacks, under the blob lock.
 */
export class TurnContent {
  readonly #staged = new Map<string, Uint8Array>();
  /** Bytes read and verified this run, so each is read and hashed once. */
  readonly #read = new Map<string, Uint8Array>();
  /** Blobs this turn stored before its model call (`storeBlobsEarly`): storing the turn skips them. */
  readonly #storedEarly = new Set<string>();

  constructor(
    readonly blobs: BlobStore,
    readonly spool: BlobSpool,
    readonly fileContents: FileContents,
  ) {}

  /** The resource with its content as a reference; content in hand is kept until the turn is stored. */
  stage(resource: Resource): Resource {
    if (isRefResource(resource)) return resource;
    const bytes = resourceBytes(resource);
    const sha256 = sha256Of(bytes);
    if (!this.#staged.has(sha256)) this.#staged.set(sha256, bytes);
    return withContentRef(resource, { sha256, size: bytes.byteLength, encoding: resourceEncoding(resource) });
  }

  /** Whether blob `sha256` was stored early this turn, and is kept from `jp gc` until the turn is stored. */
  storedEarly(sha256: string): boolean {
    return this.#storedEarly.has(sha256);
  }

  markStoredEarly(sha256s: Iterable<string>): void {
    for (const sha256 of sha256s) this.#storedEarly.add(sha256);
  }

  /** Every resource of the events staged (`stage`). */
  stageEvents(events: readonly ConversationEvent[]): ConversationEvent[] {
    return mapResources(events, (resource) => this.stage(resource));
  }

  /**
   * The bytes of a reference. `where` names it in errors: the conversation and turn, or the
   * resource. A missing blob and a damaged one are errors that name the blob.
   */
  read(resource: RefResource, where = resource.uri): Uint8Array {
    return this.readBlob(resource.ref.sha256, resource.uri, where);
  }

  /** The bytes of blob `sha256`, which `uri` (a resource, or the one a `formatted` belongs to) refers to. */
  readBlob(sha256: string, uri: string, where: string): Uint8Array {
    const known = this.#staged.get(sha256) ?? this.#read.get(sha256);
    if (known !== undefined) return known;
    const found = this.spool.read(sha256) ?? this.blobs.read(sha256, `${where}, ${uri}`) ?? this.fromKnownFile(sha256);
    if (found === undefined) {
      throw new JpError(
        `${where} refers to blob ${this.blobs.displayPath(sha256)} (${uri}), which is missing; restore it from a backup, or fork the conversation before that turn`,
        { code: 'missing_blob' },
      );
    }
    // A plain view, as every resource's blob is, whatever the reads return (a Buffer).
    const bytes = new Uint8Array(found.buffer, found.byteOffset, found.byteLength);
    this.#read.set(sha256, bytes);
    return bytes;
  }

  /**
   * The bytes of a blob the store lacks, for storing it: staged or read this run, or from the
   * file the cache knew it from (spooled blobs are adopted with their spool file instead).
   */
  bytesFor(sha256: string): Uint8Array | undefined {
    return this.#staged.get(sha256) ?? this.#read.get(sha256) ?? this.fromKnownFile(sha256);
  }

  /** Content the file cache handed out this run, read again from its file when it still hashes the same. */
  private fromKnownFile(sha256: string): Uint8Array | undefined {
    const file = this.fileContents.knownFile(sha256);
    if (file === undefined) return undefined;
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch {
      return undefined;
    }
    return sha256Of(bytes) === sha256 ? bytes : undefined;
  }
}
