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

/** `blobsOf`: a blob store the command has already for this `.jp/` (an early tree's), if any. */
export function workspaceContext(globals: GlobalOptions, blobsOf?: (jpDir: string) => BlobStore | undefined): CommandContext {
  const cwd = process.cwd();
  const workspace = findWorkspace(cwd, globals.workspace);
  return { globals, cwd, workspace, store: new ConversationStore(workspace.jpDir, blobsOf?.(workspace.jpDir)), output: new Output(globals) };
}
