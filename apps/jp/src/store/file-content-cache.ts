import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileContentCache, FileStamp, KnownFileContent } from '@jp/attachments';
import { writeFileAtomic } from './atomic-write.ts';
import { SHA256_PATTERN, type BlobStore } from './blob-store.ts';
import { LOCAL_DIR } from './jp-git-files.ts';

/**
 * On disk: `{ version, files: [[file URI, size, mtimeMs, ctimeMs, ino, sha256], …] }`, oldest
 * first. Rows, not an object keyed by URI (version 1): rows are cheaper to write and to read.
 */
const VERSION = 2;
type Entry = [uri: string, size: number, mtimeMs: number, ctimeMs: number, ino: number, sha256: string];

/** Entries kept at most; the oldest go first. */
const MAX_ENTRIES = 100_000;

function isEntry(value: unknown): value is Entry {
  return (
    Array.isArray(value) &&
    value.length === 6 &&
    typeof value[0] === 'string' &&
    Number.isFinite(value[1]) &&
    Number.isFinite(value[2]) &&
    Number.isFinite(value[3]) &&
    Number.isFinite(value[4]) &&
    typeof value[5] === 'string' &&
    SHA256_PATTERN.test(value[5])
  );
}

/**
 * Which workspace files' content the blob store holds, by the stamp each file had when read
 * (RFD 002, "Files seen before"): `.jp/local/cache/file-contents.json`. It is only a cache. A missing,
 * unreadable or foreign file is an empty cache. A file whose stamp is as remembered is taken to
 * hold the remembered content; whether the blob store still holds that content is decided when
 * the turn is stored, under the blob lock (`jp gc` may have removed it meanwhile: the file itself
 * is then read again, see `knownFile`). The file is rewritten after a turn is stored, keeping
 * only entries whose blob is stored. It names workspace files only, by the `file://` URIs the
 * conversations store anyway.
 */
export class FileContents implements FileContentCache {
  readonly file: string;
  #entries: Map<string, unknown> | undefined;
  /** This run's entries. */
  #remembered = new Map<string, Entry>();
  /** Entries on disk checked so far: the entry, or null for one that is not well formed. */
  #checked = new Map<string, Entry | null>();
  /** Content this run took from the cache, by sha256: the file it was known from. */
  #handedOut = new Map<string, string>();

  constructor(
    jpDir: string,
    private readonly blobs: BlobStore,
  ) {
    this.file = path.join(jpDir, LOCAL_DIR, 'cache', 'file-contents.json');
  }

  /** The entries on disk, by URI; each is checked when looked up (most never are). */
  #load(): Map<string, unknown> {
    if (this.#entries !== undefined) return this.#entries;
    let entries = new Map<string, unknown>();
    try {
      const json = JSON.parse(readFileSync(this.file, 'utf8')) as { version?: unknown; files?: unknown };
      if (json.version === VERSION && Array.isArray(json.files)) {
        // A row is checked when looked up or saved; here only its URI is needed, to find it.
        for (const row of json.files as unknown[]) if (Array.isArray(row) && typeof row[0] === 'string') entries.set(row[0], row);
      }
    } catch {
      // No cache yet, or one this version cannot read: every file is read, nothing is lost.
    }
    this.#entries = entries;
    return entries;
  }

  /** The well-formed entry for `uri`: this run's, else the one on disk (checked once, on first use). */
  #entry(uri: string): Entry | undefined {
    const mine = this.#remembered.get(uri);
    if (mine !== undefined) return mine;
    let checked = this.#checked.get(uri);
    if (checked === undefined) {
      const entry = this.#load().get(uri);
      // A file the cache never saw (all of them, the first time a tree is attached) leaves no trace.
      if (entry === undefined) return undefined;
      checked = isEntry(entry) ? entry : null;
      this.#checked.set(uri, checked);
    }
    return checked ?? undefined;
  }

  rememberedStamp(uri: string): FileStamp | undefined {
    const entry = this.#entry(uri);
    if (entry === undefined) return undefined;
    const [, size, mtimeMs, ctimeMs, ino] = entry;
    return { size, mtimeMs, ctimeMs, ino };
  }

  lookup(uri: string, stamp: FileStamp): KnownFileContent | undefined {
    const entry = this.#entry(uri);
    if (entry === undefined) return undefined;
    const [, size, mtimeMs, ctimeMs, ino, sha256] = entry;
    if (size !== stamp.size || mtimeMs !== stamp.mtimeMs || ctimeMs !== stamp.ctimeMs || ino !== stamp.ino) return undefined;
    this.#handedOut.set(sha256, uri);
    return { sha256, byteLength: size };
  }

  /** The workspace file this run took content `sha256` from the cache for, if it did: where else to read it. */
  knownFile(sha256: string): string | undefined {
    const uri = this.#handedOut.get(sha256);
    return uri === undefined ? undefined : fileURLToPath(uri);
  }

  remember(uri: string, stamp: FileStamp, digest: { sha256: string; byteLength: number }): void {
    // Only kept here: `save` writes them all with one `JSON.stringify`.
    this.#remembered.set(uri, [uri, stamp.size, stamp.mtimeMs, stamp.ctimeMs, stamp.ino, digest.sha256]);
  }

  /**
   * Writes what this run remembered, merged into what was there, keeping only entries whose blob
   * is stored: call it after the turn's blobs are. Does nothing when nothing was remembered.
   */
  save(): void {
    if (this.#remembered.size === 0) return;
    const kept: Entry[] = [];
    // Entries made this run are well formed; only those read from disk need checking. Newest last.
    for (const [uri, value] of this.#load()) {
      if (this.#remembered.has(uri)) continue;
      const checked = this.#checked.get(uri);
      const entry = checked !== null && checked === value ? checked : isEntry(value) ? value : undefined;
      if (entry !== undefined && this.blobs.has(entry[5], entry[1])) kept.push(entry);
    }
    for (const entry of this.#remembered.values()) if (this.blobs.has(entry[5], entry[1])) kept.push(entry);
    const files = kept.length > MAX_ENTRIES ? kept.slice(kept.length - MAX_ENTRIES) : kept;
    mkdirSync(path.dirname(this.file), { recursive: true });
    // Written whole under a temporary name and renamed, but not flushed: it is a cache, and a
    // file a crash damaged reads as an empty one.
    writeFileAtomic(this.file, JSON.stringify({ version: VERSION, files }), { flush: false });
    // What is on disk now is read again if this cache is asked anything more (rarely: a save ends a query).
    this.#entries = undefined;
    this.#checked = new Map();
    this.#remembered.clear();
  }
}
