import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The POSIX path of `absolute` relative to the workspace root: `''` for the root itself,
 * `undefined` when it lies outside. Both paths must already be real (symlinks resolved).
 */
export function workspaceRelative(workspaceRoot: string, absolute: string): string | undefined {
  const relative = path.relative(workspaceRoot, absolute);
  if (relative === '') return '';
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/** An absolute POSIX path of characters no URL encodes, without `.` or `..` segments. */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._+,=@-]+)+$/;

/**
 * Canonical resource URI of a real absolute path: `file://` plus the path, percent-encoded as
 * Node's `pathToFileURL` does. A plain path (the common case) needs no encoding, so it skips
 * building a URL, which costs more than reading a small file.
 */
export function fileUri(realPath: string): string {
  return PLAIN_PATH.test(realPath) ? `file://${realPath}` : pathToFileURL(realPath).href;
}

/** `Resource.name`: the workspace-relative POSIX path in Unicode NFC. */
export function resourceName(relative: string): string {
  return relative.normalize('NFC');
}
