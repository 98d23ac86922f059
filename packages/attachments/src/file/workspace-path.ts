import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The POSIX path of `absolute` relative to the workspace root: `''` for the root itself,
 * `undefined` when it lies outside. Both paths must already be real (symlinks resolved).
 */
export function workspaceRelative(workspaceRoot: string, absolute: string): string | undefined {
  // A plain path under the root is a prefix cut; path.relative, which normalises both, costs more
  // and the freshness check does this for every declared file on every turn.
  if (path.sep === '/' && absolute.length > workspaceRoot.length + 1 && absolute.startsWith(workspaceRoot) && isPlainPath(absolute)) {
    const cut = workspaceRoot.endsWith('/') ? workspaceRoot.length : workspaceRoot.length + 1;
    if (workspaceRoot.endsWith('/') || absolute[workspaceRoot.length] === '/') return absolute.slice(cut);
  }
  const relative = path.relative(workspaceRoot, absolute);
  if (relative === '') return '';
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/** Characters no URL encodes, and `/`. */
const PLAIN_CHARS = /^\/[A-Za-z0-9._+,=@/-]+$/;
/** An empty, `.` or `..` segment. */
const ODD_SEGMENT = /\/\.{0,2}(?:\/|$)/;

/**
 * An absolute POSIX path of characters no URL encodes, without empty, `.` or `..` segments. Two
 * linear scans: a single pattern with a look-ahead per segment costs several times more, and the
 * freshness check asks this of every declared file on every turn.
 */
function isPlainPath(candidate: string): boolean {
  return PLAIN_CHARS.test(candidate) && !ODD_SEGMENT.test(candidate);
}

/**
 * Canonical resource URI of a real absolute path: `file://` plus the path, percent-encoded as
 * Node's `pathToFileURL` does. A plain path (the common case) needs no encoding, so it skips
 * building a URL, which costs more than reading a small file.
 */
export function fileUri(realPath: string): string {
  return isPlainPath(realPath) ? `file://${realPath}` : pathToFileURL(realPath).href;
}

/**
 * The path of a `file:` URI, as `fileURLToPath` gives it (and throwing as it does). The URI of a
 * plain path, as `fileUri` writes it, is the path itself after `file://`: no URL is built.
 */
export function filePathOf(uri: string): string {
  if (uri.startsWith('file:///')) {
    const plain = uri.slice('file://'.length);
    if (isPlainPath(plain)) return plain;
  }
  return fileURLToPath(uri);
}

/** `Resource.name`: the workspace-relative POSIX path in Unicode NFC. */
export function resourceName(relative: string): string {
  return relative.normalize('NFC');
}
