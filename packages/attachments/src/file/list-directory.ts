import { isUtf8 } from 'node:buffer';
import fs, { type Dirent } from 'node:fs';
import { REPLACEMENT } from './utf8-path.ts';

/** One directory entry as a walk needs it. */
export interface DirectoryEntry {
  /** The name as Node decodes it (U+FFFD for bytes that are not UTF-8). */
  name: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** The raw bytes of a name that is not valid UTF-8; such an entry cannot be opened by `name`. */
  nonUtf8Name?: Uint8Array;
}

function kindOf(dirent: Dirent | Dirent<Buffer>): DirectoryEntry['kind'] {
  if (dirent.isFile()) return 'file';
  if (dirent.isDirectory()) return 'directory';
  if (dirent.isSymbolicLink()) return 'symlink';
  return 'other';
}

/**
 * The entries of a directory, synchronously (see RFD 002 on why). Names are listed as strings;
 * only when one shows U+FFFD is the directory listed again as bytes, to tell a name that really
 * contains U+FFFD from one whose bytes are not UTF-8.
 */
export function listDirectory(directory: string): DirectoryEntry[] {
  const dirents = fs.readdirSync(directory, { withFileTypes: true });
  if (!dirents.some((dirent) => dirent.name.includes(REPLACEMENT))) {
    return dirents.map((dirent) => ({ name: dirent.name, kind: kindOf(dirent) }));
  }
  return fs.readdirSync(directory, { withFileTypes: true, encoding: 'buffer' }).map((dirent) => {
    const raw = dirent.name;
    const entry: DirectoryEntry = { name: raw.toString('utf8'), kind: kindOf(dirent) };
    if (!isUtf8(raw)) entry.nonUtf8Name = new Uint8Array(raw);
    return entry;
  });
}
