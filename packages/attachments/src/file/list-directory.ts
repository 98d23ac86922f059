import { isUtf8 } from 'node:buffer';
import fs, { type Dirent } from 'node:fs';
import { REPLACEMENT } from './utf8-path.ts';

/**
 * One directory entry as a walk needs it: in the common case the `Dirent` Node returns, untouched
 * (a walk lists thousands of them, and a wrapper object per entry showed in its time).
 */
export interface DirectoryEntry {
  /** The name as Node decodes it (U+FFFD for bytes that are not UTF-8). */
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  /** The raw bytes of a name that is not valid UTF-8; such an entry cannot be opened by `name`. */
  readonly nonUtf8Name?: Uint8Array;
}

/**
 * The entries of a directory, synchronously (see RFD 002 on why). Names are listed as strings;
 * only when one shows U+FFFD is the directory listed again as bytes, to tell a name that really
 * contains U+FFFD from one whose bytes are not UTF-8.
 */
export function listDirectory(directory: string): readonly DirectoryEntry[] {
  const dirents = fs.readdirSync(directory, { withFileTypes: true });
  for (const dirent of dirents) {
    if (dirent.name.includes(REPLACEMENT)) return listAsBytes(directory);
  }
  return dirents;
}

/** The rare listing with a U+FFFD in it: each entry decoded, with its bytes kept when not UTF-8. */
function listAsBytes(directory: string): DirectoryEntry[] {
  return fs.readdirSync(directory, { withFileTypes: true, encoding: 'buffer' }).map((dirent: Dirent<Buffer>) => {
    const raw = dirent.name;
    return {
      name: raw.toString('utf8'),
      isFile: () => dirent.isFile(),
      isDirectory: () => dirent.isDirectory(),
      isSymbolicLink: () => dirent.isSymbolicLink(),
      ...(isUtf8(raw) ? {} : { nonUtf8Name: new Uint8Array(raw) }),
    };
  });
}
