import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmdirSync, rmSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import path from 'node:path';
import type { ContentSpool, SpooledBlob } from '@jp/attachments';
import { readPacked, sealPack, type PackedBlob } from './blob-pack.ts';
import { crashPoint } from './test-hooks.ts';

/** Spool files are named `.spool-<pid>-<random>.tmp`: `jp gc` leaves those of a live process alone. */
const SPOOL_FILE = /^\.spool-(\d+)-[0-9a-f]+\.tmp$/;

/** A spool file older than this is left over from a crash whatever its process id says (ids are reused). */
const SPOOL_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Whether `jp gc` may remove a file of this name and age from `.jp/blobs/packs/`: a temporary
 * file, unless it is a spool file that a running query may still write and adopt.
 */
export function isStaleTemporary(name: string, ageMs: number): boolean {
  if (!name.startsWith('.') || !name.endsWith('.tmp')) return false;
  const pid = SPOOL_FILE.exec(name)?.[1];
  if (pid === undefined || ageMs > SPOOL_MAX_AGE_MS) return true;
  try {
    process.kill(Number(pid), 0);
    return false; // its process runs
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

interface SpoolFile {
  /** What the reader reported writing, in order; `undefined` until it has. */
  blobs: SpooledBlob[] | undefined;
  /** The file ended as a pack (index, trailer, fsync) under its own name, begun once the blobs were reported. */
  sealed?: Promise<{ name: string; entries: Map<string, PackedBlob> }>;
  /** The pack it became, once adopted. */
  pack?: string;
}

/**
 * The blob store's side of `ContentSpool` (RFD 008, "Spooled content"): files in `.jp/blobs/packs/`
 * that readers of many files write content into as they read it. Once a reader reports what it
 * wrote, the file is ended as a pack in the background (index and trailer appended, fsync); storing
 * a turn adopts each file holding a blob the store lacks by renaming it — a pack like any other —
 * instead of writing the same bytes again; `discard` removes what was never adopted (a failed or
 * unsaved turn), and the directories it had to make, so a query that stores nothing leaves `.jp/`
 * as it was. Until adopted, a spool file is no part of the store: nothing refers to it.
 */
export class BlobSpool implements ContentSpool {
  #files = new Map<string, SpoolFile>();
  /** Where each reported blob lies, by sha256. */
  #blobs = new Map<string, SpooledBlob>();
  /** Directories `create` made, deepest first. */
  #made: string[] = [];

  constructor(private readonly packsDir: string) {}

  create(): string {
    if (this.#files.size === 0) {
      const first = mkdirSync(this.packsDir, { recursive: true });
      if (first !== undefined) for (let dir = this.packsDir; dir.length >= first.length; dir = path.dirname(dir)) this.#made.push(dir);
    }
    const file = path.join(this.packsDir, `.spool-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
    closeSync(openSync(file, 'wx', 0o644));
    this.#files.set(file, { blobs: undefined });
    return file;
  }

  /**
   * Records what `file` holds and, once its writer is `done`, begins at once to end it as a pack —
   * its index and trailer written, then flushed — in the background: the turn goes on meanwhile
   * (the model, the line that will refer to the blobs), and adopting the file is then a rename. A
   * file never adopted is removed all the same (`discard`); nothing refers to it before the rename.
   * A file whose writer may still write (a reading stopped early) is ended only when adopted.
   */
  written(file: string, blobs: readonly SpooledBlob[], done: boolean): void {
    const spooled = this.#files.get(file);
    if (spooled === undefined) throw new Error(`not a spool file of this run: ${file}`);
    spooled.blobs = [...blobs];
    for (const blob of blobs) if (!this.#blobs.has(blob.sha256)) this.#blobs.set(blob.sha256, blob);
    if (!done) return;
    spooled.sealed = sealSpool(file, spooled.blobs);
    // A failure (the file discarded meanwhile, a full disk) is the adoption's to report, if it comes to one.
    spooled.sealed.catch(() => undefined);
  }

  /**
   * The bytes of a blob a reader spooled this run, wherever its file is now (adopted or not);
   * `undefined` when no spool file of this run holds it. Not verified: the reader hashed these
   * very bytes as it wrote them.
   */
  read(sha256: string): Uint8Array | undefined {
    const blob = this.#blobs.get(sha256);
    if (blob === undefined) return undefined;
    return readPacked(this.#files.get(blob.file)?.pack ?? blob.file, { pack: '', offset: blob.offset, size: blob.size });
  }

  /**
   * Adopts, as packs in `packsDir`, the spool files holding any of the `wanted` blobs, and
   * returns where every blob of theirs now lies. The caller holds the blob lock and flushes
   * `packsDir` afterwards.
   */
  async adopt(wanted: ReadonlySet<string>): Promise<Map<string, PackedBlob>> {
    let adopted: Map<string, PackedBlob> | undefined;
    for (const [file, spooled] of this.#files) {
      if (spooled.pack !== undefined || spooled.blobs === undefined || !spooled.blobs.some((blob) => wanted.has(blob.sha256))) continue;
      const { name, entries } = await (spooled.sealed ?? sealSpool(file, spooled.blobs));
      const pack = path.join(this.packsDir, name);
      await rename(file, pack);
      crashPoint('pack-write');
      spooled.pack = pack;
      // One spool file (a tree's reader): its pack's entries are the answer, not copied.
      if (adopted === undefined) adopted = entries;
      else for (const [sha256, blob] of entries) adopted.set(sha256, blob);
    }
    return adopted ?? new Map();
  }

  /** Removes every spool file not adopted, and the directories `create` made if they are empty now. */
  discard(): void {
    for (const [file, spooled] of this.#files) {
      if (spooled.pack !== undefined) continue;
      try {
        rmSync(file, { force: true });
      } catch {
        // Still open elsewhere (Windows): `jp gc` removes it once this process is gone.
      }
    }
    this.#files.clear();
    this.#blobs.clear();
    for (const dir of this.#made) {
      try {
        rmdirSync(dir);
      } catch {
        break; // not empty: a pack was adopted, or another process wrote meanwhile
      }
    }
    this.#made = [];
  }
}

/** Ends a spool file as a pack of the blobs it holds, each listed once, in place (`sealPack`). */
function sealSpool(file: string, blobs: readonly SpooledBlob[]): Promise<{ name: string; entries: Map<string, PackedBlob> }> {
  const rows: Array<[string, number, number]> = [];
  const seen = new Set<string>();
  let end = 0;
  for (const { sha256, offset, size } of blobs) {
    end = Math.max(end, offset + size);
    if (seen.has(sha256)) continue;
    seen.add(sha256);
    rows.push([sha256, offset, size]);
  }
  return sealPack(file, rows, end);
}
