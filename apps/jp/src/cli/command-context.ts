import { Output } from '../output/output.ts';
import type { BlobStore } from '../store/blob-store.ts';
import { ConversationStore } from '../store/conversation-store.ts';
import { findWorkspace, type Workspace } from '../workspace/workspace.ts';
import type { GlobalOptions } from './global-options.ts';

/** What every command inside a workspace starts from. */
export interface CommandContext {
  globals: GlobalOptions;
  cwd: string;
  workspace: Workspace;
  store: ConversationStore;
  output: Output;
}

/** `blobs`: the blob store the command has already (a read-ahead's), used when it is this workspace's. */
export function workspaceContext(globals: GlobalOptions, blobs?: BlobStore): CommandContext {
  const cwd = process.cwd();
  const workspace = findWorkspace(cwd, globals.workspace);
  const store = new ConversationStore(workspace.jpDir, blobs?.jpDir === workspace.jpDir ? blobs : undefined);
  return { globals, cwd, workspace, store, output: new Output(globals) };
}
