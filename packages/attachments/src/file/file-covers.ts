import path from 'node:path';
import picomatch from 'picomatch';
import { isDynamicPattern } from 'tinyglobby';
import { filePathOf, workspaceRelative } from './workspace-path.ts';

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
  if (uri.slice(0, 7).toLowerCase() !== 'file://') return false;
  let filePath: string;
  try {
    filePath = filePathOf(uri);
  } catch {
    return false;
  }
  const relative = workspaceRelative(workspaceRoot, filePath);
  return relative !== undefined && relative !== '' && matcherOf(declaration, workspaceRoot)(relative);
}

type RelativeMatcher = (relative: string) => boolean;
const NEVER: RelativeMatcher = () => false;

/**
 * The test a declaration makes of a workspace-relative path, built once per declaration and root:
 * the freshness check asks it of every declared file on every turn, and compiling a glob costs far
 * more than matching one. Pure, so keeping the few a process meets changes no answer.
 */
const matchers = new Map<string, Map<string, RelativeMatcher>>();
function matcherOf(declaration: string, workspaceRoot: string): RelativeMatcher {
  let byDeclaration = matchers.get(workspaceRoot);
  if (byDeclaration === undefined) matchers.set(workspaceRoot, (byDeclaration = new Map()));
  let matcher = byDeclaration.get(declaration);
  if (matcher === undefined) {
    matcher = buildMatcher(normalizeDeclaration(declaration, workspaceRoot));
    byDeclaration.set(declaration, matcher);
  }
  return matcher;
}

function buildMatcher(normal: string | undefined): RelativeMatcher {
  if (normal === undefined) return NEVER;
  if (normal === './') return () => true;
  if (normal.endsWith('/')) return (relative) => relative.startsWith(normal);
  const glob = isDynamicPattern(normal) ? picomatch(normal, { dot: false }) : undefined;
  return (relative) => relative === normal || (glob !== undefined && glob(relative));
}
