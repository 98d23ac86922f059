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

/** Canonical resource URI of a real absolute path: `file://` plus the path, percent-encoded as Node does. */
export function fileUri(realPath: string): string {
  return pathToFileURL(realPath).href;
}

/** `Resource.name`: the workspace-relative POSIX path in Unicode NFC. */
export function resourceName(relative: string): string {
  return relative.normalize('NFC');
}

/** Byte order of UTF-8 strings (what `sort` in the C locale gives), not UTF-16 code-unit order. */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
