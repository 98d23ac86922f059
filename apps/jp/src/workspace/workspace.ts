import { existsSync, mkdirSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '@jp/core';

/**
 * A directory holding `.jp/`. `root` is a real path (symlinks resolved). `kind`: a project's
 * (found upward from the current directory), one named by `-w`/`JP_WORKSPACE`, or the user's own
 * at `$XDG_DATA_HOME/jp` for commands run outside any project (RFD 032).
 */
export interface Workspace {
  root: string;
  jpDir: string;
  kind?: 'project' | 'named' | 'user';
  /** The user workspace was made by this command. */
  created?: boolean;
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

/** Where the user workspace is: `$XDG_DATA_HOME/jp`, else `~/.local/share/jp`. */
export function userWorkspaceRoot(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'jp');
}

/** The user workspace, made (private to the user) when it is not there yet. */
function userWorkspace(env: NodeJS.ProcessEnv): Workspace {
  const dir = userWorkspaceRoot(env);
  const created = !hasJpDir(dir);
  if (created) mkdirSync(path.join(dir, JP_DIR), { recursive: true, mode: 0o700 });
  return { ...at(dir), kind: 'user', created };
}

function named(cwd: string, explicit: string, how: string): Workspace {
  const dir = path.resolve(cwd, explicit);
  if (!existsSync(dir)) throw new UsageError(`workspace directory ${explicit}${how} does not exist`, { code: 'no_workspace' });
  if (!hasJpDir(dir)) {
    throw new UsageError(`${explicit}${how} is not a jp workspace (no .jp/ in it); run \`jp init ${explicit}\` first`, { code: 'no_workspace' });
  }
  return { ...at(dir), kind: 'named' };
}

/**
 * The workspace for this invocation: `-w DIR` exactly, else `$JP_WORKSPACE`, else the nearest
 * directory from `cwd` upward that holds `.jp/`. With `user`, a command run outside any of them
 * uses the user workspace (`q`, `chat`, `c …`, `a …`, `gc`; RFD 032); without, it is a usage error.
 */
export function findWorkspace(cwd: string, explicit: string | undefined, options: { user?: boolean; env?: NodeJS.ProcessEnv } = {}): Workspace {
  const env = options.env ?? process.env;
  if (explicit !== undefined) return named(cwd, explicit, '');
  if (env.JP_WORKSPACE) return named(cwd, env.JP_WORKSPACE, ' (JP_WORKSPACE)');
  let dir = path.resolve(cwd);
  for (;;) {
    if (hasJpDir(dir)) return { ...at(dir), kind: 'project' };
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (options.user) return userWorkspace(env);
  throw new UsageError('not inside a jp workspace (no .jp/ here or above); run `jp init` or pass -w DIR', { code: 'no_workspace' });
}

/** A workspace as messages name it: its path with `~` for the home directory, and the user's said so. */
export function workspaceLabel(workspace: Workspace): string {
  const home = os.homedir();
  const shown = workspace.root === home || workspace.root.startsWith(`${home}${path.sep}`) ? `~${workspace.root.slice(home.length)}` : workspace.root;
  return workspace.kind === 'user' ? `your user workspace ${shown}` : shown;
}
