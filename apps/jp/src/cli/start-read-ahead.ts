import { startReadAhead, type ReadAhead } from '@jp/attachments';
import { BlobStore } from '../store/blob-store.ts';
import type { BlobSpool } from '../store/blob-spool.ts';
import { FileContents } from '../store/file-content-cache.ts';
import { findWorkspace, type Workspace } from '../workspace/workspace.ts';

/** A read-ahead the CLI started before the command loaded, and the stores it reads through: the command uses the same. */
export interface EarlyRead {
  readAhead: ReadAhead;
  jpDir: string;
  blobs: BlobStore;
  spool: BlobSpool;
  fileContents: FileContents;
  /** Ends a tree nobody took and removes any spool file nobody adopted. */
  dispose(): void;
}

/**
 * Starts reading ahead a directory `jp query` attaches (its `--attach` values and `-w`, as
 * commander parsed them), before the command's modules load (see `startReadAhead`); `undefined`
 * when it attaches none in a workspace. Never throws: the command meets any problem again, and
 * reports it.
 */
export async function startEarlyRead(args: { attach: readonly string[]; workspace: string | undefined }): Promise<EarlyRead | undefined> {
  const cwd = process.cwd();
  let workspace: Workspace | undefined;
  let stores: Pick<EarlyRead, 'blobs' | 'spool' | 'fileContents'> | undefined;
  const readAhead = await startReadAhead(args, {
    cwd,
    workspaceRoot(option) {
      try {
        workspace = findWorkspace(cwd, option);
        return workspace.root;
      } catch {
        return undefined;
      }
    },
    stores() {
      const blobs = new BlobStore(workspace!.jpDir);
      stores = { blobs, spool: blobs.createSpool(), fileContents: new FileContents(workspace!.jpDir, blobs) };
      return stores;
    },
  });
  if (readAhead === undefined || stores === undefined || workspace === undefined) return undefined;
  const { spool } = stores;
  return {
    readAhead,
    jpDir: workspace.jpDir,
    ...stores,
    dispose() {
      readAhead.close();
      spool.discard();
    },
  };
}
