import { readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { SHA256_PATTERN } from './blob-store.ts';
import type { ConversationStore } from './conversation-store.ts';

export interface GarbageReport {
  /** Blobs deleted. */
  removed: number;
  /** Their total size. */
  bytes: number;
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
 * `jp gc`: deletes the blobs no event refers to, and temporary files left by interrupted writes.
 * It holds the workspace's blob lock throughout, and every writer holds that lock from storing
 * its blobs until its lines are appended, so a blob that is about to be referenced is never
 * deleted: gc either runs before the writer stores it (and the writer stores it again) or after
 * the line that refers to it is written.
 */
export async function collectGarbage(store: ConversationStore, timeoutMs?: number): Promise<GarbageReport> {
  const release = await store.lockBlobs(timeoutMs);
  try {
    const referenced = referencedBlobs(store);
    const report: GarbageReport = { removed: 0, bytes: 0 };
    for (const prefix of entries(store.blobs.dir)) {
      const dir = path.join(store.blobs.dir, prefix);
      if (!statSync(dir).isDirectory()) continue;
      for (const name of entries(dir)) {
        const file = path.join(dir, name);
        const stale = name.startsWith('.') && name.endsWith('.tmp');
        if (!stale && (!SHA256_PATTERN.test(name) || referenced.has(name))) continue;
        const size = statSync(file).size;
        rmSync(file, { force: true });
        if (!stale) {
          report.removed += 1;
          report.bytes += size;
        }
      }
      if (entries(dir).length === 0) rmdirSync(dir);
    }
    return report;
  } finally {
    release();
  }
}
