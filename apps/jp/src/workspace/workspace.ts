import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '@jp/core';

/** A directory holding `.jp/`. `root` is a real path (symlinks resolved). */
export interface Workspace {
  root: string;
  jpDir: string;
}

export const JP_DIR = '.jp';

function hasJpDir(dir: string): boolean {
  try {
    return statSync(path.join(dir, JP_DIR)).isDirectory();
  } catch {
    return false;
  }
}

function at(dir: string): Workspace {
  const root = realpathSync(dir);
  return { root, jpDir: path.join(root, JP_DIR) };
}

/**
 * The workspace for this invocation: `-w DIR` exactly, or the nearest directory from `cwd` upward
 * that holds `.jp/`.
 */
export function findWorkspace(cwd: string, explicit: string | undefined): Workspace {
  if (explicit !== undefined) {
    const dir = path.resolve(cwd, explicit);
    if (!existsSync(dir)) throw new UsageError(`workspace directory ${explicit} does not exist`, { code: 'no_workspace' });
    if (!hasJpDir(dir)) {
      throw new UsageError(`${explicit} is not a jp workspace (no .jp/ in it); run \`jp init ${explicit}\` first`, { code: 'no_workspace' });
    }
    return at(dir);
  }
  let dir = path.resolve(cwd);
  for (;;) {
    if (hasJpDir(dir)) return at(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new UsageError('not inside a jp workspace (no .jp/ here or above); run `jp init` or pass -w DIR', { code: 'no_workspace' });
}
