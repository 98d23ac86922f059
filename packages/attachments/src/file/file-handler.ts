import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import { AttachmentError, type Resource } from '@jp/core';
import picomatch from 'picomatch';
import type { AttachmentHandler, HandlerContext } from '../handler.ts';
import { fileCovers } from './file-covers.ts';
import { declarationOf, locateFileTarget, type FileTarget } from './file-target.ts';
import { fsAttachmentError } from './fs-error.ts';
import { readFileResource } from './read-file-resource.ts';
import { walkFiles, type WalkedFile } from './walk-files.ts';

/** The files a directory or glob target expands to, checked against `maxFiles`. */
async function expand(target: Extract<FileTarget, { kind: 'directory' | 'glob' }>, ctx: HandlerContext): Promise<WalkedFile[]> {
  const common = { workspaceRoot: ctx.workspaceRoot, input: target.input, logger: ctx.logger };
  let files: WalkedFile[];
  if (target.kind === 'directory') {
    files = await walkFiles({ ...common, start: target.realPath });
    if (files.length === 0) {
      throw new AttachmentError(
        target.input,
        `${target.input}: no files left after .gitignore and hidden-file rules; attach the files you want by name`,
        { code: 'file_directory_empty' },
      );
    }
  } else {
    const matcher = picomatch(target.pattern, { dot: false });
    const descendHidden = target.pattern.split('/').some((segment) => segment.startsWith('.'));
    files = await walkFiles({ ...common, start: target.baseRealPath, match: (relative) => matcher(relative), descendHidden });
    if (files.length === 0) {
      throw new AttachmentError(
        target.input,
        `glob ${target.input} matched no files; patterns start at the workspace root and skip hidden and .gitignored files`,
        { code: 'file_glob_empty' },
      );
    }
  }
  if (files.length > ctx.limits.maxFiles) {
    throw new AttachmentError(
      target.input,
      `${target.input} expands to ${files.length} files, more than the limit of ${ctx.limits.maxFiles}; attach a narrower directory or glob`,
      { code: 'file_too_many' },
    );
  }
  return files;
}

async function resolveDeclaration(declaration: string, ctx: HandlerContext): Promise<Resource[]> {
  // Declarations are relative to the workspace root, whatever the current directory.
  const target = await locateFileTarget(declaration, { workspaceRoot: ctx.workspaceRoot, cwd: ctx.workspaceRoot });
  if (target.kind === 'file') {
    return [await readFileResource({ realPath: target.realPath, relative: target.relative, input: declaration, label: declaration }, ctx.limits)];
  }
  const resources: Resource[] = [];
  for (const file of await expand(target, ctx)) {
    const label = `${file.relative} (from ${declaration})`;
    resources.push(await readFileResource({ ...file, input: declaration, label }, ctx.limits));
  }
  return resources;
}

/**
 * The handler for files in the workspace: paths (relative to the cwd, absolute, `~/…`), `file:`
 * URLs, directories and globs. Canonical URIs are `file://` + the real path; names are
 * workspace-relative. Paths outside the workspace are refused (the `external:` handler's job).
 */
export function createFileHandler(): AttachmentHandler {
  return {
    schemes: ['file'],

    async validate(input: string, ctx: HandlerContext): Promise<string> {
      const target = await locateFileTarget(input, ctx);
      // Catch an unreadable file when it is added, not at the next query (reads no content).
      if (target.kind === 'file') {
        await fs.access(target.realPath, constants.R_OK).catch((error: unknown) => {
          throw fsAttachmentError(input, input, error);
        });
      }
      return declarationOf(target);
    },

    async resolve(declarations: readonly string[], ctx: HandlerContext): Promise<Resource[]> {
      const resources: Resource[] = [];
      const seen = new Set<string>();
      for (const declaration of declarations) {
        for (const resource of await resolveDeclaration(declaration, ctx)) {
          if (seen.has(resource.uri)) continue;
          seen.add(resource.uri);
          resources.push(resource);
        }
      }
      return resources;
    },

    async refresh(uri: string, ctx: HandlerContext): Promise<Resource> {
      if (!/^file:\/\//i.test(uri)) {
        throw new AttachmentError(uri, `${uri} is not a file:// resource URI; refresh a URI from this conversation`, { code: 'file_uri_invalid' });
      }
      const target = await locateFileTarget(uri, { workspaceRoot: ctx.workspaceRoot, cwd: ctx.workspaceRoot, globs: false });
      if (target.kind !== 'file') {
        throw new AttachmentError(uri, `${uri} is a directory now, not a file; attach the directory again instead`, { code: 'file_not_regular' });
      }
      return readFileResource({ realPath: target.realPath, relative: target.relative, input: uri, label: uri }, ctx.limits);
    },

    covers(declaration: string, uri: string, ctx: HandlerContext): boolean {
      return fileCovers(declaration, uri, ctx.workspaceRoot);
    },
  };
}
