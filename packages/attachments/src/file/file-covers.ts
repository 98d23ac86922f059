import path from 'node:path';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';
import { isDynamicPattern } from 'tinyglobby';
import { workspaceRelative } from './workspace-path.ts';

/** A declaration as `declarationOf` writes it, also from a hand-written `./src/x` or an absolute path. */
function normalizeDeclaration(declaration: string, workspaceRoot: string): string | undefined {
  if (declaration === '.' || declaration === './') return './';
  const directory = declaration.endsWith('/');
  let normal = declaration;
  if (path.isAbsolute(normal)) {
    const relative = workspaceRelative(workspaceRoot, path.normalize(normal));
    if (relative === undefined) return undefined;
    if (relative === '') return './';
    normal = relative;
  }
  while (normal.startsWith('./')) normal = normal.slice(2);
  normal = normal.replace(/\/+$/, '');
  return directory ? `${normal}/` : normal;
}

/**
 * Whether a canonical `file://` URI came from a declaration of the file handler: the file itself,
 * a file under the declared directory, or a file the glob matches (picomatch on the
 * workspace-relative path). Decided from the strings alone; the workspace root is already real.
 */
export function fileCovers(declaration: string, uri: string, workspaceRoot: string): boolean {
  if (!uri.toLowerCase().startsWith('file://')) return false;
  let filePath: string;
  try {
    filePath = fileURLToPath(uri);
  } catch {
    return false;
  }
  const relative = workspaceRelative(workspaceRoot, filePath);
  const normal = normalizeDeclaration(declaration, workspaceRoot);
  if (relative === undefined || relative === '' || normal === undefined) return false;
  if (normal === './') return true;
  if (normal.endsWith('/')) return relative.startsWith(normal);
  if (relative === normal) return true;
  return isDynamicPattern(normal) && picomatch(normal, { dot: false })(relative);
}
