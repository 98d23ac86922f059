import { realpathSync } from 'node:fs';
import path from 'node:path';
import { AttachmentError } from '@jp/core';
import picomatch from 'picomatch';
import type { HandlerContext } from '../handler.ts';
import type { FileTarget } from './file-target.ts';
import { walkFiles, type WalkOptions, type WalkedFile } from './walk-files.ts';

export type ExpandableTarget = Extract<FileTarget, { kind: 'directory' | 'glob' }>;

/**
 * The files a directory or glob target expands to, sorted, checked against
 * `conversation.attachment.max_files` once the walk is done (`found` may have had them read
 * meanwhile; see `startFileReading`, which stops past the limit). An expansion to nothing is an
 * error: the user asked for something and would otherwise get a silent empty turn.
 */
export async function expandFileTarget(
  target: ExpandableTarget,
  ctx: HandlerContext,
  pace?: () => Promise<void>,
  found?: WalkOptions['found'],
): Promise<WalkedFile[]> {
  const common = { workspaceRoot: ctx.workspaceRoot, input: target.input, logger: ctx.logger, ...(pace === undefined ? {} : { pace }), ...(found === undefined ? {} : { found }) };
  return checkedExpansion(target, await walkTarget(target, common), ctx);
}

/** The walk a directory or glob target makes: from the directory, or from the glob's literal base with its pattern as the filter. */
export function walkTarget(target: ExpandableTarget, common: Omit<WalkOptions, 'start' | 'match' | 'descendHidden'>): Promise<WalkedFile[]> {
  if (target.kind === 'directory') return walkFiles({ ...common, start: target.realPath });
  const matcher = picomatch(target.pattern, { dot: false });
  const descendHidden = target.pattern.split('/').some((segment) => segment.startsWith('.'));
  return walkFiles({ ...common, start: target.baseRealPath, match: (relative) => matcher(relative), descendHidden });
}

/**
 * Where a glob was looked for: the directory its literal part names, as the workspace path the
 * pattern is shown with (`src/`, or the workspace root), so that a pattern typed in a
 * subdirectory is seen to have started there.
 */
function globStart(target: Extract<ExpandableTarget, { kind: 'glob' }>, ctx: HandlerContext): string {
  let root = ctx.workspaceRoot;
  try {
    root = realpathSync(ctx.workspaceRoot);
  } catch {
    // A root that is gone: its name as given.
  }
  const relative = path.relative(root, target.baseRealPath);
  return relative === '' ? 'the workspace root' : `${relative.split(path.sep).join('/')}/`;
}

/**
 * The files a walk found for `target`, once checked: an expansion to nothing, or to more than
 * `conversation.attachment.max_files`, is an error.
 */
export function checkedExpansion(target: ExpandableTarget, files: WalkedFile[], ctx: HandlerContext): WalkedFile[] {
  if (target.kind === 'directory') {
    if (files.length === 0) {
      throw new AttachmentError(
        target.input,
        `${target.input}: no files left after .gitignore and hidden-file rules; attach the files you want by name`,
        { code: 'file_directory_empty' },
      );
    }
  } else if (files.length === 0) {
    throw new AttachmentError(target.input, `glob ${target.input} matched no files under ${globStart(target, ctx)} (hidden and .gitignored files are skipped)`, {
      code: 'file_glob_empty',
    });
  }
  if (files.length > ctx.limits.maxFiles) {
    throw new AttachmentError(
      target.input,
      `${target.input} expands to ${files.length} files, more than the limit of ${ctx.limits.maxFiles} (conversation.attachment.max_files); attach a narrower directory or glob, or raise the limit`,
      { code: 'file_too_many' },
    );
  }
  return files;
}
