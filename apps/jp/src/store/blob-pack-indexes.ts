import { readdirSync } from 'node:fs';
import path from 'node:path';
import { JpError } from '@jp/core';
import { DamagedPack, readPackIndex, type PackedBlob } from './blob-pack.ts';

/**
 * Where each packed blob of `packsDir` lies: every pack's index (trailer and index only), the
 * first pack's place kept for a blob two packs hold. A pack removed meanwhile (`jp gc`) is
 * skipped; a damaged one is an error naming it.
 */
export function readPackIndexes(packsDir: string): Map<string, PackedBlob> {
  let packed = new Map<string, PackedBlob>();
  let names: string[];
  try {
    names = readdirSync(packsDir).filter((name) => name.endsWith('.pack'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    names = [];
  }
  for (const name of names.sort()) {
    let entries: Map<string, PackedBlob>;
    try {
      entries = readPackIndex(path.join(packsDir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed by gc meanwhile
      if (!(error instanceof DamagedPack)) throw error;
      throw new JpError(`blob pack .jp/blobs/packs/${name} is damaged: ${error.message}; restore it from a backup`, { code: 'damaged_blob' });
    }
    // The first pack's map is taken as it is (most workspaces have one or two packs).
    if (packed.size === 0) packed = entries;
    else for (const [sha256, blob] of entries) if (!packed.has(sha256)) packed.set(sha256, blob);
  }
  return packed;
}
