import { mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../store/atomic-write.ts';
import { LOCAL_DIR } from '../store/jp-git-files.ts';

/*
 * What the search knows of each file it read before (RFD 033, "The index"): for an events.jsonl,
 * a pack or a loose blob, a filter of the byte trigrams it holds (ASCII letters folded), and what
 * the search needs of it without reading it (the blobs an events file refers to, a pack's rows).
 * An entry counts only while the file has the size and mtime it was read at. The file is
 * `.jp/local/search-index` (never committed), rewritten whole by rename, so a kill leaves the old
 * one or the new; one that does not load is ignored and rebuilt. `jp query` never touches it.
 *
 *   "jpsearch" · uint32 BE length of a JSON header · filters, back to back
 *   header: {"v":1,"entries":{"<path under .jp/>":[size, mtimeMs, offset, bytes, extra?], …}}
 */

const MAGIC = Buffer.from('jpsearch', 'latin1');
const FILE = 'search-index';

type Entry = [size: number, mtimeMs: number, offset: number, bytes: number, extra?: unknown];

const fold = (byte: number) => (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte);

/** A trigram's bit in a filter of `bits` bits (a power of two): the high bits of a multiplicative hash. */
function slot(trigram: number, bits: number): number {
  return Math.imul(trigram, 0x9e3779b1) >>> (Math.clz32(bits) + 1);
}

/**
 * A filter's size for a file of `size` bytes, in bits (a power of two): one per byte up to 16 KiB,
 * then a quarter per byte, since longer text repeats its trigrams; a fifth to a third of the bits
 * end up set on the texts measured (docs/performance.md).
 */
function filterBits(size: number): number {
  const wanted = size <= 16_384 ? size : 16_384 + (size - 16_384) / 4;
  let bits = 256;
  while (bits < wanted && bits < 1 << 24) bits *= 2;
  return bits;
}

/** The trigram filter of `bytes` (ASCII letters folded), in one pass. */
function filterOf(bytes: Buffer): Buffer {
  const bits = filterBits(bytes.length);
  const shift = Math.clz32(bits) + 1;
  const filter = Buffer.alloc(bits / 8);
  let trigram = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    trigram = ((trigram << 8) | (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte)) & 0xffffff;
    if (i < 2) continue;
    const at = Math.imul(trigram, 0x9e3779b1) >>> shift;
    filter[at >>> 3]! |= 1 << (at & 7);
  }
  return filter;
}

/**
 * What a search looks for, as the filters can tell it: a file may hold a match when, for one of
 * the forms, every trigram is in its filter. `undefined` forms: anything may match anywhere.
 */
export interface IndexQuery {
  /** Byte forms of the required text, per medium (`forms` of byte-prefilter.ts). */
  forms: (medium: 'raw' | 'json') => readonly string[] | undefined;
  /** The pattern ignores case: trigrams holding `s` or `k` are not asked (ſ and the Kelvin sign fold onto them). */
  ignoreCase: boolean;
}

export interface IndexedFile {
  /** The file has the size and mtime of its entry. */
  fresh: boolean;
  /** Fresh, and its filter says it may hold a match (true when it is not fresh). */
  mayHold: boolean;
  extra: unknown;
  stat: { size: number; mtimeMs: number } | undefined;
}

export class SearchIndex {
  readonly #file: string;
  readonly #entries = new Map<string, { entry: Entry; filter: Buffer }>();
  #dirty = false;

  private constructor(readonly jpDir: string) {
    this.#file = path.join(jpDir, LOCAL_DIR, FILE);
  }

  /** The index of a workspace as stored; empty when there is none or it does not load. */
  static load(jpDir: string): SearchIndex {
    const index = new SearchIndex(jpDir);
    try {
      const bytes = readFileSync(index.#file);
      if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) return index;
      const length = bytes.readUInt32BE(MAGIC.length);
      const start = MAGIC.length + 4 + length;
      const header = JSON.parse(bytes.toString('utf8', MAGIC.length + 4, start)) as { v?: unknown; entries?: Record<string, Entry> };
      if (header.v !== 1 || typeof header.entries !== 'object' || header.entries === null) return index;
      for (const [name, entry] of Object.entries(header.entries)) {
        const [, , offset, size] = entry;
        if (start + offset + size > bytes.length) return new SearchIndex(jpDir);
        index.#entries.set(name, { entry, filter: bytes.subarray(start + offset, start + offset + size) });
      }
    } catch {
      // Missing or damaged: a cache, rebuilt from the files.
    }
    return index;
  }

  #key(file: string): string {
    return path.relative(this.jpDir, file);
  }

  /** What the index says of `file` for `query`; stats the file (a missing file is dropped from the index). */
  lookup(file: string, medium: 'raw' | 'json', query: IndexQuery): IndexedFile {
    let stat: { size: number; mtimeMs: number } | undefined;
    try {
      stat = statSync(file);
    } catch {
      stat = undefined;
    }
    const key = this.#key(file);
    const known = this.#entries.get(key);
    if (stat === undefined && known !== undefined) {
      this.#entries.delete(key);
      this.#dirty = true;
    }
    if (known === undefined || stat === undefined || known.entry[0] !== stat.size || known.entry[1] !== stat.mtimeMs) return { fresh: false, mayHold: true, extra: undefined, stat };
    return { fresh: true, mayHold: this.#mayHold(known.filter, medium, query), extra: known.entry[4], stat };
  }

  #mayHold(filter: Buffer, medium: 'raw' | 'json', query: IndexQuery): boolean {
    const forms = query.forms(medium);
    if (forms === undefined) return true;
    const bits = filter.length * 8;
    return forms.some((form) => {
      const bytes = Buffer.from(form, 'utf8');
      for (let i = 2; i < bytes.length; i++) {
        const [a, b, c] = [fold(bytes[i - 2]!), fold(bytes[i - 1]!), fold(bytes[i]!)];
        if (query.ignoreCase && [a, b, c].some((byte) => byte === 0x73 || byte === 0x6b)) continue;
        const at = slot((a << 16) | (b << 8) | c, bits);
        if ((filter[at >>> 3]! & (1 << (at & 7))) === 0) return false;
      }
      return true;
    });
  }

  /**
   * What the index says of a file whose content never changes while it has its name (a blob, a
   * pack: both named by digests), by its path under `.jp/`, without a `stat`: known or not.
   */
  immutable(key: string, medium: 'raw' | 'json', query: IndexQuery): { known: boolean; mayHold: boolean; extra: unknown } {
    const known = this.#entries.get(key);
    if (known === undefined) return { known: false, mayHold: true, extra: undefined };
    return { known: true, mayHold: this.#mayHold(known.filter, medium, query), extra: known.entry[4] };
  }

  /** Records an immutable file just read whole, by its path under `.jp/`. */
  recordImmutable(key: string, bytes: Buffer, extra?: unknown): void {
    const entry: Entry = [bytes.length, 0, 0, 0];
    if (extra !== undefined) entry.push(extra);
    this.#entries.set(key, { entry, filter: filterOf(bytes) });
    this.#dirty = true;
  }

  /** Records a file just read whole (`stat` taken before the read), with what the search keeps of it. */
  record(file: string, stat: { size: number; mtimeMs: number } | undefined, bytes: Buffer, extra?: unknown): void {
    if (stat === undefined || stat.size !== bytes.length) return;
    const entry: Entry = [stat.size, stat.mtimeMs, 0, 0];
    if (extra !== undefined) entry.push(extra);
    this.#entries.set(this.#key(file), { entry, filter: filterOf(bytes) });
    this.#dirty = true;
  }

  /** Writes the index when it changed; best effort (a read-only workspace still searches). */
  save(): void {
    if (!this.#dirty) return;
    const entries: Record<string, Entry> = {};
    const filters: Buffer[] = [];
    let offset = 0;
    for (const [name, { entry, filter }] of this.#entries) {
      entries[name] = [entry[0], entry[1], offset, filter.length, ...(entry.length > 4 ? [entry[4]] : [])] as Entry;
      filters.push(filter);
      offset += filter.length;
    }
    const header = Buffer.from(JSON.stringify({ v: 1, entries }), 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(header.length);
    try {
      mkdirSync(path.dirname(this.#file), { recursive: true });
      writeFileAtomic(this.#file, Buffer.concat([MAGIC, length, header, ...filters]), { flush: false });
      this.#dirty = false;
    } catch {
      // Built again next time.
    }
  }
}
