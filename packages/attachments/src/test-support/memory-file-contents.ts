import type { FileContentCache, FileStamp, KnownFileContent } from '../handler.ts';

/** A `FileContentCache` in memory: what was remembered under which stamp, by URI. */
export interface MemoryFileContents extends FileContentCache {
  readonly entries: Map<string, { stamp: FileStamp; content: KnownFileContent }>;
}

export function memoryFileContents(): MemoryFileContents {
  const entries = new Map<string, { stamp: FileStamp; content: KnownFileContent }>();
  const same = (a: FileStamp, b: FileStamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
  return {
    entries,
    rememberedStamp: (uri) => entries.get(uri)?.stamp,
    lookup(uri, stamp) {
      const entry = entries.get(uri);
      return entry !== undefined && same(entry.stamp, stamp) ? entry.content : undefined;
    },
    remember(uri, stamp, digest) {
      entries.set(uri, { stamp, content: { sha256: digest.sha256, byteLength: digest.byteLength } });
    },
  };
}
