import type { ConversationEvent, FreshnessNotice } from '@jp/core';
import { filePathOf, fileStamp, listDeclaredFiles, type AttachmentRegistry, type HandlerContext } from '@jp/attachments';
import type { Config } from '../config/config-schema.ts';
import { mcpServerOfTool } from '../tools/mcp-tool-name.ts';
import { checkAll } from './check-freshness.ts';
import { decideNotices, isWatchable, newestSnapshots, snapshotsToCheck, type NewestSnapshot, type SourceNow, type WatchedDeclaration } from './freshness-notices.ts';
import { decideNewFileNotices } from './new-file-notices.ts';
import { declarationsEver, originsByUri, snapshotOrigins } from './refreshable.ts';

/**
 * Whether a snapshot's file is still as the file cache remembers it under that snapshot's content:
 * one `stat`, no read. Anything else (a new stamp, a file the cache never settled) is re-read.
 */
function unchangedByStamp(snapshot: NewestSnapshot, hctx: HandlerContext): boolean {
  const cache = hctx.fileContents;
  if (cache === undefined) return false;
  let realPath: string;
  try {
    realPath = filePathOf(snapshot.uri);
  } catch {
    return false;
  }
  const stamp = fileStamp(realPath);
  return stamp !== undefined && cache.lookup(snapshot.uri, stamp)?.sha256 === snapshot.sha256;
}

/**
 * The freshness notices of this turn (RFD 020): the conversation's declared files, by policy,
 * compared with their newest snapshots — stamps first, content only when a stamp changed — and
 * the files that appeared under a declared directory or glob since it was read.
 */
export async function freshnessNotices(input: {
  history: readonly ConversationEvent[];
  declarations: readonly WatchedDeclaration[];
  attachedNow: ReadonlySet<string>;
  config: Config;
  registry: AttachmentRegistry;
  hctx: HandlerContext;
}): Promise<FreshnessNotice[]> {
  const { history, registry, hctx } = input;
  if (!input.declarations.some((declaration) => declaration.refresh === 'notify')) return [];
  const covers = (declaration: string, uri: string) => registry.covers(declaration, uri, hctx);
  const changed = await changedNotices(input, covers);
  // Files that appeared under a declared directory or glob: one listing per declaration, nothing read.
  const listed = new Map<string, string[] | undefined>();
  for (const declaration of input.declarations) {
    if (declaration.refresh === 'notify' && isWatchable(declaration.url)) listed.set(declaration.url, await listDeclaredFiles(declaration.url, hctx));
  }
  const appeared = decideNewFileNotices({ history, declarations: input.declarations, listed, covers, attachedNow: input.attachedNow, workspaceRoot: hctx.workspaceRoot });
  return [...changed, ...appeared];
}

/** The notices of snapshots whose source changed or is gone: stamps first, content only when a stamp changed. */
async function changedNotices(
  input: Parameters<typeof freshnessNotices>[0],
  covers: (declaration: string, uri: string) => boolean,
): Promise<FreshnessNotice[]> {
  const { history, registry, hctx } = input;
  const toCheck = snapshotsToCheck(newestSnapshots(history), input.declarations, covers, input.attachedNow);
  if (toCheck.length === 0) return [];
  const now: SourceNow[] = new Array(toCheck.length);
  const reread: number[] = [];
  toCheck.forEach((snapshot, i) => {
    if (unchangedByStamp(snapshot, hctx)) now[i] = { status: 'fresh', sha256: snapshot.sha256 };
    else reread.push(i);
  });
  if (reread.length > 0) {
    const evidence = {
      workspaceRoot: hctx.workspaceRoot,
      origins: originsByUri(snapshotOrigins(history)),
      declarations: declarationsEver(
        input.declarations.map((declaration) => declaration.url),
        history,
      ),
      covers,
      mcpServerOfTool: (tool: string) => mcpServerOfTool(tool, input.config),
    };
    const checks = await checkAll(
      reread.map((i) => toCheck[i]!),
      { registry, handlerContext: hctx, evidence },
    );
    reread.forEach((i, k) => {
      const check = checks[k]!;
      now[i] =
        check.status === 'fresh' || check.status === 'changed'
          ? { status: check.status, sha256: check.sha256 ?? '' }
          : check.status === 'missing'
            ? { status: 'missing' }
            : { status: 'unknown' };
    });
  }
  return decideNotices(toCheck, now, hctx.workspaceRoot);
}
