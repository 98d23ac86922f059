import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { readCfgArgs, readFileLayers, resolveConfig } from '../config/load-config.ts';
import { collectGarbage } from '../store/collect-garbage.ts';

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * `jp gc`: deletes blobs no conversation refers to (left by `conversation rm`, or by a crash
 * between storing blobs and appending the turn). A writer storing blobs holds the workspace's blob
 * lock; gc waits for it up to `conversation.lock_timeout_secs`, then exits 5 naming the holder.
 */
export async function gcCommand(globals: GlobalOptions): Promise<void> {
  const { workspace, store, output } = workspaceContext(globals);
  const config = resolveConfig([...readFileLayers(workspace.jpDir), readCfgArgs(globals.cfg)]);
  const report = await collectGarbage(store, config.conversation.lock_timeout_secs * 1000);
  if (output.json) output.data(report);
  else if (report.removed === 0) output.note('nothing to collect: every stored blob is referenced');
  else output.line(`removed ${report.removed} unreferenced blob${report.removed === 1 ? '' : 's'} (${megabytes(report.bytes)})`);
  // Another clone's turns may still refer to them after a merge: they go with git's history (RFD 029).
  if (report.tracked > 0 && !output.json) output.note(`kept ${report.tracked} unreferenced blob${report.tracked === 1 ? '' : 's'} that git tracks; \`git rm\` them when no branch needs them`);
}
