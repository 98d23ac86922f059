import fs from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { gitConfigValue } from './git-config-value.ts';
import type { GitignoreLevel } from './gitignore-rules.ts';

/** The variables that tell where git's own files are; `process.env` by default. */
export type GitEnvironment = Readonly<Partial<Record<'HOME' | 'XDG_CONFIG_HOME' | 'GIT_CONFIG_GLOBAL' | 'GIT_CONFIG_SYSTEM' | 'GIT_CONFIG_NOSYSTEM', string>>>;

/** Where a repository's work tree and its shared git directory are. */
export interface GitRepository {
  /** The directory holding `.git`: patterns of `info/exclude` and the global file start there. */
  workTree: string;
  /** The git directory that holds `info/` and `config` (for a linked worktree, the main one's). */
  commonDir: string;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The git directory a `.git` entry stands for: itself, or the one a `gitdir: …` file names. */
function gitDirOf(dotGit: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return dotGit;
  if (!stat.isFile()) return undefined;
  // A linked worktree or a submodule: `.git` is a file naming the real git directory.
  const named = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? '')?.[1];
  return named === undefined ? undefined : path.resolve(path.dirname(dotGit), named);
}

/**
 * The repository `directory` is in, found as git finds it: the nearest `.git` (a directory, or a
 * `gitdir:` file) in it or an ancestor. A linked worktree's git directory names the shared one in
 * `commondir`. `undefined` outside any repository.
 */
export function findGitRepository(directory: string): GitRepository | undefined {
  for (let current = path.resolve(directory); ; ) {
    const gitDir = gitDirOf(path.join(current, '.git'));
    if (gitDir !== undefined) {
      const common = readText(path.join(gitDir, 'commondir'))?.trim();
      return { workTree: current, commonDir: common === undefined || common === '' ? gitDir : path.resolve(gitDir, common) };
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** `~/…` against HOME; a relative path against the work tree. */
function expandPath(value: string, workTree: string, env: GitEnvironment): string | undefined {
  if (value === '~' || value.startsWith('~/')) return env.HOME === undefined || env.HOME === '' ? undefined : path.join(env.HOME, value.slice(1));
  if (value.startsWith('~')) return undefined; // `~user/`: not looked up
  return path.resolve(workTree, value);
}

/** The config files git reads, lowest precedence first: system, global (XDG, then ~/.gitconfig), the repository's. */
function configFiles(repository: GitRepository, env: GitEnvironment): string[] {
  const files: string[] = [];
  if (env.GIT_CONFIG_NOSYSTEM === undefined || env.GIT_CONFIG_NOSYSTEM === '' || env.GIT_CONFIG_NOSYSTEM === '0' || env.GIT_CONFIG_NOSYSTEM === 'false') {
    files.push(env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig');
  }
  if (env.GIT_CONFIG_GLOBAL !== undefined) files.push(env.GIT_CONFIG_GLOBAL);
  else {
    files.push(path.join(xdgConfigHome(env) ?? '', 'git', 'config'));
    if (env.HOME !== undefined && env.HOME !== '') files.push(path.join(env.HOME, '.gitconfig'));
  }
  files.push(path.join(repository.commonDir, 'config'));
  return files.filter((file) => path.isAbsolute(file));
}

function xdgConfigHome(env: GitEnvironment): string | undefined {
  if (env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '') return env.XDG_CONFIG_HOME;
  return env.HOME === undefined || env.HOME === '' ? undefined : path.join(env.HOME, '.config');
}

/** The global excludes file: `core.excludesFile` from git's config, else `$XDG_CONFIG_HOME/git/ignore`. */
export function globalExcludesFile(repository: GitRepository, env: GitEnvironment): string | undefined {
  let configured: string | undefined;
  for (const file of configFiles(repository, env)) {
    const text = readText(file);
    const value = text === undefined ? undefined : gitConfigValue(text, 'core', 'excludesFile');
    if (value !== undefined) configured = value;
  }
  if (configured !== undefined) return configured === '' ? undefined : expandPath(configured, repository.workTree, env);
  const xdg = xdgConfigHome(env);
  return xdg === undefined ? undefined : path.join(xdg, 'git', 'ignore');
}

/**
 * The rules git takes from outside the tree for the repository holding `workspaceRoot`: the
 * global excludes file, then `info/exclude` (a later rule wins, so info/exclude outranks the
 * global file), as one level below every `.gitignore`. `prefix` is where the workspace root lies
 * in the work tree, since these patterns start at the work tree's root. `undefined` outside a
 * repository, or when neither file has a rule. Each file is read once per call.
 */
export function readGitExcludes(workspaceRoot: string, env: GitEnvironment = process.env): GitignoreLevel | undefined {
  const repository = findGitRepository(workspaceRoot);
  if (repository === undefined) return undefined;
  const globalFile = globalExcludesFile(repository, env);
  const texts = [globalFile === undefined ? undefined : readText(globalFile), readText(path.join(repository.commonDir, 'info', 'exclude'))];
  // git writes an info/exclude of comments only into every new repository: no level for it.
  const present = texts.filter((text): text is string => text !== undefined && /^[^#\r\n]/m.test(text));
  if (present.length === 0) return undefined;
  const rules = ignore();
  for (const text of present) rules.add(text);
  const relative = path.relative(repository.workTree, workspaceRoot).split(path.sep).join('/');
  return { directory: '', rules, prefix: relative === '' ? '' : `${relative}/` };
}
