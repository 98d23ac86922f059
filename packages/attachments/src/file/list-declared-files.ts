import type { HandlerContext, HandlerLogger } from '../handler.ts';
import { schemeOf } from '../uri-scheme.ts';
import { locateFileTarget } from './file-target.ts';
import { walkTarget } from './expand-file-target.ts';
import { fileUri } from './workspace-path.ts';

/** The walk's warnings (a link leading outside, a name that is not UTF-8) were given when the declaration was read; not every turn again. */
const SILENT: HandlerLogger = { warn: () => undefined };

/**
 * The `file:` URIs a directory or glob declaration expands to now, by the rules a directory
 * attach follows (hidden names, `.gitignore`, git's excludes): directory listings only, no file
 * is read. Undefined for a declaration of one file or of another scheme, or one that no longer
 * points anywhere (its files' notices say "deleted").
 */
export async function listDeclaredFiles(declaration: string, ctx: Pick<HandlerContext, 'workspaceRoot'>): Promise<string[] | undefined> {
  const scheme = schemeOf(declaration);
  if (scheme !== undefined && scheme !== 'file') return undefined;
  let target;
  try {
    target = await locateFileTarget(declaration, { workspaceRoot: ctx.workspaceRoot, cwd: ctx.workspaceRoot });
  } catch {
    return undefined;
  }
  if (target.kind !== 'directory' && target.kind !== 'glob') return undefined;
  const files = await walkTarget(target, { workspaceRoot: ctx.workspaceRoot, input: declaration, logger: SILENT });
  return files.map((file) => fileUri(file.realPath));
}
