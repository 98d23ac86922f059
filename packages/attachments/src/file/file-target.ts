import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AttachmentError } from '@jp/core';
import { externalUri } from '../external/external-uri.ts';
import { schemeOf } from '../uri-scheme.ts';
import { fsAttachmentError, isMissing, notRegularFileError } from './fs-error.ts';
import { assertUtf8RealPath, missingNonUtf8Error, REPLACEMENT } from './utf8-path.ts';
import { workspaceRelative } from './workspace-path.ts';

/** Where an input points, once parsed and checked against the workspace. */
export type FileTarget =
  | { kind: 'file'; input: string; realPath: string; relative: string }
  | { kind: 'directory'; input: string; realPath: string; relative: string }
  /** `pattern` is relative to the workspace root; `baseRealPath` is where a walk for it starts. */
  | { kind: 'glob'; input: string; pattern: string; baseRealPath: string }
  /** A regular file outside the workspace; `uri` is its `external:` URI, the only thing stored. */
  | { kind: 'external'; input: string; realPath: string; uri: string };

export interface TargetContext {
  workspaceRoot: string;
  /** What relative inputs start from: the user's cwd for inputs, the workspace root for declarations. */
  cwd: string;
  /** Whether a missing path with wildcards is read as a glob (default true; false for resource URIs). */
  globs?: boolean;
}

/**
 * The declaration stored for a target. It is relative to the workspace root, in POSIX form:
 * a file as `src/main.rs`, a directory with a trailing slash (`src/`), the workspace root itself
 * as `./`, and a glob as a pattern from the root (`src/**\/*.ts`, its literal part escaped).
 * A path that would read as a URI (`a:b.md`) gets a leading `./`. A file outside the workspace
 * is declared by its `external:` URI, which holds no path.
 * A declaration names an existing file or directory before it is read as a glob, so a file
 * literally called `a[1].txt` stays that file.
 */
export function declarationOf(target: FileTarget): string {
  if (target.kind === 'external') return target.uri;
  const declaration =
    target.kind === 'glob' ? target.pattern : target.kind === 'file' ? target.relative : target.relative === '' ? './' : `${target.relative}/`;
  // `notes:2024.md` would read as a URI with the scheme `notes`; `./notes:2024.md` stays a path.
  return schemeOf(declaration) === undefined ? declaration : `./${declaration}`;
}

function malformed(input: string, why: string): AttachmentError {
  return new AttachmentError(input, `malformed file URL ${input}: ${why}; write file:///absolute/path or file:relative/path`, {
    code: 'file_url_invalid',
  });
}

/** The path an input names: `file:` URLs decoded (`file:rel` is relative), `~` expanded. */
function inputPath(input: string): string {
  if (!/^file:/i.test(input)) {
    if (input === '~' || input.startsWith('~/')) return path.join(os.homedir(), input.slice(1));
    return input;
  }
  const rest = input.slice('file:'.length);
  if (rest.startsWith('//')) {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw malformed(input, 'not a valid URL');
    }
    try {
      return fileURLToPath(url);
    } catch (error) {
      if (error instanceof URIError) throw malformed(input, 'its percent-encoding is not UTF-8, and jp attaches only files whose names are UTF-8');
      throw malformed(input, 'only local files (no host, or localhost) can be attached');
    }
  }
  try {
    return decodeURIComponent(rest);
  } catch {
    throw malformed(input, 'bad percent-encoding (or bytes that are not UTF-8)');
  }
}

function outsideDirectoryError(input: string): AttachmentError {
  return new AttachmentError(
    input,
    `${input} is a directory outside the workspace; jp snapshots files from outside the workspace one at a time, so attach the files you need by path`,
    { code: 'file_outside_directory' },
  );
}

function outsideGlobError(input: string): AttachmentError {
  return new AttachmentError(
    input,
    `glob ${input} starts outside the workspace; globs expand inside the workspace only, so attach files from outside it one at a time by path`,
    { code: 'file_outside_glob' },
  );
}

/** `realpath`, or for a path that does not exist, the real path of its closest existing ancestor joined with the rest. */
async function realpathLenient(absolute: string): Promise<string> {
  try {
    return await fs.realpath(absolute);
  } catch (error) {
    const parent = path.dirname(absolute);
    if (!isMissing(error) || parent === absolute) throw error;
    return path.join(await realpathLenient(parent), path.basename(absolute));
  }
}

/**
 * The glob libraries, loaded only for a path that does not exist: locating a file or directory
 * needs neither, and an early tree (early-tree.ts) locates its directory before the command's
 * modules load.
 */
async function globLibraries(): Promise<{ picomatch: typeof import('picomatch'); escapePath: (path: string) => string; isDynamicPattern: (pattern: string) => boolean }> {
  const [picomatch, { escapePath, isDynamicPattern }] = await Promise.all([import('picomatch'), import('tinyglobby')]);
  return { picomatch: picomatch.default, escapePath, isDynamicPattern };
}

async function globTarget(input: string, text: string, ctx: TargetContext): Promise<FileTarget> {
  const { picomatch, escapePath } = await globLibraries();
  const invalid = (why: string) =>
    new AttachmentError(input, `invalid glob ${input}: ${why}`, { code: 'file_glob_invalid' });
  if (text.startsWith('!')) throw invalid('negated globs are not supported; list what to attach, and use .gitignore for what to leave out');
  const { base, glob } = picomatch.scan(text, { unescape: true });
  if (glob.split('/').includes('..')) throw invalid("'..' may only come before the first wildcard");
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
  } catch (error) {
    throw invalid(error instanceof Error ? error.message : String(error));
  }
  return realpathLenient(path.resolve(ctx.cwd, base)).then(
    (baseRealPath) => {
      const relative = workspaceRelative(ctx.workspaceRoot, baseRealPath);
      if (relative === undefined) throw outsideGlobError(input);
      const pattern = relative === '' ? glob : `${escapePath(relative)}/${glob}`;
      return { kind: 'glob' as const, input, pattern, baseRealPath };
    },
    (error: unknown) => {
      throw fsAttachmentError(input, input, error);
    },
  );
}

/**
 * Parses an input (a path, a `file:` URL or a glob) and checks it: an existing path must be a
 * regular file, or a directory whose real path is inside the workspace; a glob is checked by its
 * syntax and by where its literal part points. A regular file whose real path is outside the
 * workspace (given by path, `~/…`, or through a symlink) becomes an `external` target. Real paths
 * must be UTF-8. Stats the file system; reads no content.
 */
export async function locateFileTarget(input: string, ctx: TargetContext): Promise<FileTarget> {
  if (input === '') throw new AttachmentError(input, 'empty file path; name a file, directory or glob', { code: 'file_not_found' });
  const text = inputPath(input);
  const absolute = path.resolve(ctx.cwd, text);
  let stats: Stats;
  try {
    stats = await fs.stat(absolute);
  } catch (error) {
    if (isMissing(error) && ctx.globs !== false && (await globLibraries()).isDynamicPattern(text)) return globTarget(input, text, ctx);
    if (isMissing(error) && text.includes(REPLACEMENT)) throw missingNonUtf8Error(input);
    throw fsAttachmentError(input, input, error);
  }
  let realPath: string;
  try {
    realPath = await fs.realpath(absolute);
  } catch (error) {
    throw fsAttachmentError(input, input, error);
  }
  await assertUtf8RealPath(absolute, realPath, input, input);
  const relative = workspaceRelative(ctx.workspaceRoot, realPath);
  if (stats.isDirectory()) {
    if (relative === undefined) throw outsideDirectoryError(input);
    return { kind: 'directory', input, realPath, relative };
  }
  if (!stats.isFile()) throw notRegularFileError(input, input);
  // `path.resolve` drops a trailing slash; POSIX reads `a.txt/` as a directory that does not exist.
  if (text.endsWith('/') || text.endsWith('/.')) throw fsAttachmentError(input, input, Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }));
  if (relative === undefined) return { kind: 'external', input, realPath, uri: externalUri(realPath) };
  return { kind: 'file', input, realPath, relative };
}
