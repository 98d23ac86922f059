import { readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { DamagedPack, readPackIndex, readPacked, type PackedBlob } from './blob-pack.ts';
import { SHA256_PATTERN, sha256Of } from './blob-sha256.ts';
import { isStaleTemporary } from './blob-spool.ts';
import type { BlobStore } from './blob-store.ts';
import type { ConversationStore } from './conversation-store.ts';
import { gitTrackedFiles } from './git-tracked-files.ts';
import { LOCAL_DIR } from './jp-git-files.ts';
import { pendingBlobs } from './pending-blobs.ts';
import { removeDeadLeftovers, removeDeadTemporaries } from './remove-dead-leftovers.ts';
import { crashPoint } from './test-hooks.ts';

export interface GarbageReport {
  /** Blobs deleted. */
  removed: number;
  /** Their total size. */
  bytes: number;
  /** Unreferenced blobs (loose, or in packs) kept because git tracks their file (RFD 029). */
  tracked: number;
}

/** Every `"$blob":"<sha256>"` in a stored line: content references and `formatted` ones alike. */
const REFERENCE = /"\$blob":"([0-9a-f]{64})"/g;

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * The blobs some conversation refers to. Every conversation directory counts, including ones
 * half-created or half-removed, and the text is searched rather than parsed, so a damaged or
 * torn line still protects its blobs: when in doubt, a blob is kept. A file that cannot be read
 * stops the collection (an error) rather than letting its blobs look unreferenced.
 */
function referencedBlobs(store: ConversationStore): Set<string> {
  const referenced = new Set<string>();
  for (const name of entries(store.root)) {
    let text: string;
    try {
      text = readFileSync(path.join(store.root, name, 'events.jsonl'), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw error;
    }
    for (const match of text.matchAll(REFERENCE)) referenced.add(match[1]!);
  }
  return referenced;
}

/**
 * `jp gc`: deletes the blobs no event refers to — except those git tracks — and temporary files
 * left by interrupted writes.
 * The directories of a create, fork or remove that was killed midway go first, so the blobs only
 * they refer to are collected with the rest (those of one still running are kept). It holds the
 * workspace's blob lock throughout, and every writer holds that lock from storing its blobs until
 * its lines are appended, so a blob that is about to be referenced is never deleted: gc either
 * runs before the writer stores it (and the writer stores it again) or after the line that refers
 * to it is written. The test points (test-hooks.ts) are `gc:delete-leftover`, `gc:delete-loose`,
 * `gc:pack-rewrite` (the new pack is durable, the old one not yet deleted) and `gc:delete-pack`.
 */
export async function collectGarbage(store: ConversationStore, timeoutMs?: number): Promise<GarbageReport> {
  const release = await store.lockBlobs(timeoutMs);
  try {
    removeDeadLeftovers(store.root, 'gc:delete-leftover');
    // Temporary files of killed writes keep nothing alive, but nothing else would ever remove them.
    for (const dir of [store.jpDir, path.join(store.jpDir, LOCAL_DIR, 'cache'), ...entries(store.root).map((name) => path.join(store.root, name))]) removeDeadTemporaries(dir);
    // Blobs a running turn stored before its model call, which its line will refer to (RFD 029).
    // Read before the conversations: the turn writes its line without the blob lock and only then
    // removes its list, so a list gone by now means the line is already there for the scan. Read
    // after the scan, a turn finishing in between was in neither, and its blobs were deleted.
    const referenced = pendingBlobs(store.jpDir);
    for (const sha256 of referencedBlobs(store)) referenced.add(sha256);
    // A file git tracks is never deleted here: after a merge another side's turn may refer to it
    // without having written it again (deduplication). Git's history keeps it, and removes it when
    // the team does (RFD 029, "gc across branches").
    const tracked = gitTrackedFiles(store.blobs.dir);
    const report: GarbageReport = { removed: 0, bytes: 0, tracked: 0 };
    for (const prefix of entries(store.blobs.dir)) {
      const dir = path.join(store.blobs.dir, prefix);
      if (dir === store.blobs.packsDir || !statSync(dir).isDirectory()) continue;
      for (const name of entries(dir)) {
        const file = path.join(dir, name);
        const stale = name.startsWith('.') && name.endsWith('.tmp');
        if (!stale && (!SHA256_PATTERN.test(name) || referenced.has(name))) continue;
        if (!stale && tracked.has(file)) {
          report.tracked += 1;
          continue;
        }
        const size = statSync(file).size;
        rmSync(file, { force: true });
        crashPoint('gc:delete-loose');
        if (!stale) {
          report.removed += 1;
          report.bytes += size;
        }
      }
      if (entries(dir).length === 0) rmdirSync(dir);
    }
    await collectPacks(store.blobs, referenced, tracked, report);
    return report;
  } finally {
    release();
  }
}

/**
 * Packs (blob-pack.ts): one whose blobs are all unreferenced is deleted; one with some is
 * rewritten with the referenced ones — the new pack is durable before the old one goes, so a blob
 * in use is always in some pack. A pack whose index cannot be read is left alone.
 */
async function collectPacks(blobs: BlobStore, referenced: ReadonlySet<string>, tracked: ReadonlySet<string>, report: GarbageReport): Promise<void> {
  for (const name of entries(blobs.packsDir)) {
    const file = path.join(blobs.packsDir, name);
    if (name.startsWith('.') && name.endsWith('.tmp')) {
      // A spool file (blob-spool.ts) may vanish meanwhile: adopted or discarded by its query.
      const modified = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
      if (modified !== undefined && isStaleTemporary(name, Date.now() - modified)) rmSync(file, { force: true });
      continue;
    }
    if (!name.endsWith('.pack')) continue;
    let index: Map<string, PackedBlob>;
    try {
      index = readPackIndex(file);
    } catch (error) {
      if (error instanceof DamagedPack) continue;
      throw error;
    }
    const kept = [...index].filter(([sha256]) => referenced.has(sha256));
    if (kept.length === index.size) continue;
    // Neither deleted nor rewritten (a rewrite removes the old file): git keeps it.
    if (tracked.has(file)) {
      report.tracked += index.size - kept.length;
      continue;
    }
    if (kept.length > 0) {
      const survivors = kept.map(([sha256, blob]) => [sha256, readPacked(file, blob)] as const);
      // Damage is not carried into a new pack: such a pack stays as it is, for a restore.
      if (survivors.some(([sha256, bytes]) => sha256Of(bytes) !== sha256)) continue;
      const rewritten = await blobs.putPack(survivors, 'gc:pack-rewrite');
      if (rewritten === file) continue; // the same blobs again: nothing to remove
    }
    for (const [sha256, blob] of index) {
      if (referenced.has(sha256)) continue;
      report.removed += 1;
      report.bytes += blob.size;
    }
    rmSync(file, { force: true });
    crashPoint('gc:delete-pack');
  }
  blobs.reloadPacks();
  if (entries(blobs.packsDir).length === 0) rmSync(blobs.packsDir, { recursive: true, force: true });
}
