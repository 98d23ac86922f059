import { earlyDirectory, endEarlyTree, startEarlyTree } from '@jp/attachments/early-tree';
import { BlobStore } from '../store/blob-store.ts';
import type { BlobSpool } from '../store/blob-spool.ts';
import { FileContents } from '../store/file-content-cache.ts';
import { findWorkspace } from '../workspace/workspace.ts';

/*
 * The app's side of an early tree (RFD 002, "Starting early"): `jp query --attach DIR` begins to
 * walk and read DIR from its command line alone, before the command's modules load, with the blob
 * store, content cache and spool the command will then use (`takeEarlyStore`). What it guesses
 * from the arguments only decides whether to start: the command parses them as always, and uses
 * the tree only when it resolves the same directory with the same store.
 */

/** The store an early tree writes to and looks files up in: the command takes it over. */
export interface EarlyStore {
  jpDir: string;
  blobs: BlobStore;
  fileContents: FileContents;
  /** Absent when the command will store nothing (`--no-persist`, `--explain`). */
  spool: BlobSpool | undefined;
}

let early: EarlyStore | undefined;

/**
 * Starts the early tree of the first directory among `attached` (the `--attach` values), if it
 * lies in the workspace the command line names (`workspace`: its `-w`). `persist`: whether the
 * command will store its turn (no `--no-persist`, no `--explain`), so that a spool is worth
 * making. Never throws: anything unexpected only means the command walks the directory itself.
 */
export async function beginEarlyTree(start: { attached: readonly string[]; workspace: string | undefined; persist: boolean }): Promise<void> {
  try {
    const cwd = process.cwd();
    const workspace = findWorkspace(cwd, start.workspace);
    for (const input of start.attached) {
      const directory = await earlyDirectory(input, workspace.root, cwd);
      if (directory === undefined) continue;
      const blobs = new BlobStore(workspace.jpDir);
      const store: EarlyStore = { jpDir: workspace.jpDir, blobs, fileContents: new FileContents(workspace.jpDir, blobs), spool: start.persist ? blobs.createSpool() : undefined };
      // Not awaited: the walk goes on while the command loads (its failure is the handler's to see).
      void startEarlyTree({ workspaceRoot: workspace.root, ...directory, fileContents: store.fileContents, spool: store.spool });
      early = store;
      // Whatever the command did (stored the turn, failed, never took the tree), nothing is left
      // behind: a spool file adopted as a pack is the store's; `discard` removes only the others.
      process.once('exit', () => {
        endEarlyTree();
        store.spool?.discard();
      });
      return;
    }
  } catch {
    // No workspace here, or none named: the command reports it.
  }
}

/** The early tree's store, for a command in the workspace whose `.jp/` is `jpDir`; nobody else gets it. */
export function takeEarlyStore(jpDir: string): EarlyStore | undefined {
  const taken = early;
  if (taken === undefined || taken.jpDir !== jpDir) return undefined;
  early = undefined;
  return taken;
}
