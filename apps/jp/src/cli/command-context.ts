import { Output } from '../output/output.ts';
import type { BlobStore } from '../store/blob-store.ts';
import { ConversationStore } from '../store/conversation-store.ts';
import { moveLocalState } from '../store/move-local-state.ts';
import { findWorkspace, workspaceLabel, type Workspace } from '../workspace/workspace.ts';
import type { GlobalOptions } from './global-options.ts';

/** What every command inside a workspace starts from. */
export interface CommandContext {
  globals: GlobalOptions;
  cwd: string;
  workspace: Workspace;
  store: ConversationStore;
  output: Output;
}

/**
 * `blobs`: the blob store the command has already (a read-ahead's), used when it is this
 * workspace's. Outside any project the user workspace is used (RFD 032) unless `project` is asked
 * for; it is said once, when it is made.
 */
export function workspaceContext(globals: GlobalOptions, blobs?: BlobStore, options: { project?: boolean } = {}): CommandContext {
  const cwd = process.cwd();
  const workspace = findWorkspace(cwd, globals.workspace, { user: options.project !== true });
  const store = new ConversationStore(workspace.jpDir, blobs?.jpDir === workspace.jpDir ? blobs : undefined);
  const output = new Output(globals);
  if (workspace.created) {
    output.note(`jp: no .jp/ here or above: using ${workspaceLabel(workspace)} (made now; \`jp init\` makes a workspace for a project, -w or JP_WORKSPACE names one)`);
  }
  const moved = moveLocalState(workspace.jpDir);
  if (moved.length > 0) {
    const tracked = moved.includes('.jp/active') ? '; if git tracks .jp/active, commit its removal' : '';
    output.warn(`moved this machine's state (${moved.join(', ')}) into .jp/local/, which git ignores${tracked}`);
  }
  return { globals, cwd, workspace, store, output };
}
