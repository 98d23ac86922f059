import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AttachmentError, type Resource } from '@jp/core';
import { hasExternalScheme } from '../external/external-uri.ts';
import type { AttachmentHandler, HandlerContext } from '../handler.ts';
import { createEventLoopPacer } from './event-loop-pacer.ts';
import { checkedExpansion, expandFileTarget } from './expand-file-target.ts';
import { fileCovers } from './file-covers.ts';
import { declarationOf, locateFileTarget } from './file-target.ts';
import { fsAttachmentError } from './fs-error.ts';
import { readFileResource } from './read-file-resource.ts';
import { startFileReading } from './file-reading.ts';
import type { FileToRead } from './read-file-resource.ts';
import { feedingWalk } from './walk-files.ts';
import { fileUri, resourceName } from './workspace-path.ts';
import { uniqueByUri } from '../unique-by-uri.ts';

/** Where an `external:` declaration of this run came from. Lives in memory only, for one run. */
interface ExternalSource {
  realPath: string;
  /** What the user typed (errors may name it: it is theirs). */
  input: string;
}

function snapshotOnlyError(declaration: string): AttachmentError {
  return new AttachmentError(
    declaration,
    `${declaration} is a snapshot of a file outside the workspace and cannot be read again; attach the file by its path`,
    { code: 'external_snapshot_only' },
  );
}

/**
 * The handler for files: paths (relative to the cwd, absolute, `~/…`), `file:` URLs, directories
 * and globs inside the workspace, and single files outside it. A workspace file's URI is `file://`
 * + its real path and its name is workspace-relative; a file outside the workspace (by path, `~/`,
 * or through a symlink) gets an `external:<sha256 of its real parent>/<name>` URI, which is also
 * its declaration, so no path outside the workspace is ever stored. Each instance remembers, for
 * the current run only, which real path each `external:` declaration it produced came from;
 * `external:` declarations from earlier runs (or typed by hand) cannot be read.
 */
export function createFileHandler(): AttachmentHandler {
  const externals = new Map<string, ExternalSource>();

  const readExternal = async (declaration: string, ctx: HandlerContext): Promise<Resource> => {
    const source = externals.get(declaration);
    if (source === undefined) throw snapshotOnlyError(declaration);
    const name = path.basename(source.realPath).normalize('NFC');
    return readFileResource({ realPath: source.realPath, uri: declaration, name, input: source.input, label: source.input }, ctx);
  };

  /** Resolves one declaration; `onFile` counts files for progress. */
  const resolveDeclaration = async (declaration: string, ctx: HandlerContext, onFile: (label: string) => void): Promise<Resource[]> => {
    if (hasExternalScheme(declaration)) {
      onFile(declaration);
      return [await readExternal(declaration, ctx)];
    }
    // Declarations are relative to the workspace root, whatever the current directory.
    const target = await locateFileTarget(declaration, { workspaceRoot: ctx.workspaceRoot, cwd: ctx.workspaceRoot });
    if (target.kind === 'external') {
      // A hand-written declaration (or a workspace symlink) that now leads outside: read it as external.
      onFile(declaration);
      const name = path.basename(target.realPath).normalize('NFC');
      return [await readFileResource({ realPath: target.realPath, uri: target.uri, name, input: declaration, label: declaration }, ctx)];
    }
    if (target.kind === 'file') {
      onFile(target.relative);
      const file = { realPath: target.realPath, uri: fileUri(target.realPath), name: resourceName(target.relative) };
      return [await readFileResource({ ...file, input: declaration, label: declaration }, ctx)];
    }
    const pace = createEventLoopPacer(ctx.signal);
    const options = { pace, onFile: (file: FileToRead) => onFile(file.name) };
    if (target.kind === 'directory') {
      // Begun by the CLI before this command knew its configuration, if it was (read-ahead.ts).
      const early = ctx.readAhead?.take(target.realPath, declaration, ctx, options);
      if (early !== undefined) {
        try {
          const walked = await early.walked.catch(() => undefined);
          // A walk that failed is done again, below, so its error is reported as always.
          if (walked !== undefined) return await early.finish(checkedExpansion(target, walked, ctx).map(early.readOf), ctx, options);
        } finally {
          early.close();
        }
      }
    }
    // The files are read as the walk finds them (by a reader thread, once there are enough), and
    // come back in the walk's sorted order.
    const reading = startFileReading(ctx, options);
    try {
      const { found, readOf } = feedingWalk(declaration, (files) => reading.feed(files));
      const walked = await expandFileTarget(target, ctx, pace, found);
      return await reading.finish(walked.map(readOf));
    } finally {
      reading.close();
    }
  };

  return {
    schemes: ['file', 'external'],

    async validate(input: string, ctx: HandlerContext): Promise<string> {
      if (hasExternalScheme(input)) {
        if (externals.has(input)) return input;
        throw snapshotOnlyError(input);
      }
      const target = await locateFileTarget(input, ctx);
      // Catch an unreadable file when it is added, not at the next query (reads no content).
      if (target.kind === 'file' || target.kind === 'external') {
        await fs.access(target.realPath, constants.R_OK).catch((error: unknown) => {
          throw fsAttachmentError(input, input, error);
        });
      }
      if (target.kind === 'external') externals.set(target.uri, { realPath: target.realPath, input });
      return declarationOf(target);
    },

    async resolve(declarations: readonly string[], ctx: HandlerContext): Promise<Resource[]> {
      const resources: Resource[] = [];
      let read = 0;
      const onFile = (label: string) => ctx.progress?.update(++read, label);
      for (const declaration of declarations) resources.push(...(await resolveDeclaration(declaration, ctx, onFile)));
      // One declaration's files are distinct already (a walk lists each once).
      return declarations.length === 1 ? resources : uniqueByUri(resources);
    },

    async refresh(uri: string, ctx: HandlerContext): Promise<Resource> {
      if (hasExternalScheme(uri)) {
        throw new AttachmentError(
          uri,
          `${uri} is a snapshot of a file outside the workspace; external resources cannot be refreshed, so attach the file again by its path`,
          { code: 'attachment_not_refreshable' },
        );
      }
      if (!/^file:\/\//i.test(uri)) {
        throw new AttachmentError(uri, `${uri} is not a file:// resource URI; refresh a URI from this conversation`, { code: 'file_uri_invalid' });
      }
      const target = await locateFileTarget(uri, { workspaceRoot: ctx.workspaceRoot, cwd: ctx.workspaceRoot, globs: false });
      if (target.kind === 'external') {
        throw new AttachmentError(uri, `cannot refresh ${uri}: it is outside the workspace, and only workspace files can be refreshed`, {
          code: 'attachment_not_refreshable',
        });
      }
      if (target.kind !== 'file') {
        throw new AttachmentError(uri, `${uri} is a directory now, not a file; attach the directory again instead`, { code: 'file_not_regular' });
      }
      const file = { realPath: target.realPath, uri: fileUri(target.realPath), name: resourceName(target.relative) };
      return readFileResource({ ...file, input: uri, label: uri }, ctx);
    },

    covers(declaration: string, uri: string, ctx: HandlerContext): boolean {
      if (hasExternalScheme(declaration)) return declaration === uri;
      return fileCovers(declaration, uri, ctx.workspaceRoot);
    },
  };
}
