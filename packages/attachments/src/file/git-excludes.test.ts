import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findGitRepository, globalExcludesFile, readGitExcludes, type GitEnvironment } from './git-excludes.ts';

let root: string;
let home: string;
const write = async (file: string, text: string) => {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
};

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'jp-git-')));
  home = path.join(root, 'home');
  await fs.mkdir(home);
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** An environment with only this HOME, no system config. */
const envOf = (extra: GitEnvironment = {}): GitEnvironment => ({ HOME: home, GIT_CONFIG_NOSYSTEM: '1', ...extra });

describe('findGitRepository', () => {
  it('finds .git in the directory or an ancestor', async () => {
    await fs.mkdir(path.join(root, 'repo', '.git'), { recursive: true });
    await fs.mkdir(path.join(root, 'repo', 'sub', 'ws'), { recursive: true });
    expect(findGitRepository(path.join(root, 'repo'))).toEqual({ workTree: path.join(root, 'repo'), commonDir: path.join(root, 'repo', '.git') });
    expect(findGitRepository(path.join(root, 'repo', 'sub', 'ws'))).toEqual({ workTree: path.join(root, 'repo'), commonDir: path.join(root, 'repo', '.git') });
    expect(findGitRepository(home)).toBeUndefined();
  });

  it('follows a `gitdir:` file to a linked worktree’s git directory, and its commondir to the shared one', async () => {
    const main = path.join(root, 'main', '.git');
    await write(path.join(main, 'worktrees', 'wt', 'commondir'), '../..\n');
    await write(path.join(root, 'wt', '.git'), `gitdir: ${path.join(main, 'worktrees', 'wt')}\n`);
    expect(findGitRepository(path.join(root, 'wt'))).toEqual({ workTree: path.join(root, 'wt'), commonDir: main });
    // A submodule: a relative gitdir, no commondir.
    await write(path.join(root, 'sup', 'mod', '.git'), 'gitdir: ../.git/modules/mod\n');
    await fs.mkdir(path.join(root, 'sup', '.git', 'modules', 'mod'), { recursive: true });
    expect(findGitRepository(path.join(root, 'sup', 'mod'))).toEqual({ workTree: path.join(root, 'sup', 'mod'), commonDir: path.join(root, 'sup', '.git', 'modules', 'mod') });
  });
});

describe('globalExcludesFile', () => {
  const repository = () => ({ workTree: path.join(root, 'repo'), commonDir: path.join(root, 'repo', '.git') });

  it('is $XDG_CONFIG_HOME/git/ignore, or ~/.config/git/ignore, when core.excludesFile is not set', () => {
    expect(globalExcludesFile(repository(), envOf())).toBe(path.join(home, '.config', 'git', 'ignore'));
    expect(globalExcludesFile(repository(), envOf({ XDG_CONFIG_HOME: path.join(root, 'xdg') }))).toBe(path.join(root, 'xdg', 'git', 'ignore'));
  });

  it('is core.excludesFile, with ~ expanded, the repository’s config over the XDG one over ~/.gitconfig', async () => {
    await write(path.join(home, '.gitconfig'), '[core]\n\texcludesFile = ~/.global-ignore\n');
    expect(globalExcludesFile(repository(), envOf())).toBe(path.join(home, '.global-ignore'));
    await write(path.join(home, '.config', 'git', 'config'), '[core]\n\texcludesFile = /from-xdg\n');
    expect(globalExcludesFile(repository(), envOf())).toBe(path.join(home, '.global-ignore'));
    await write(path.join(root, 'repo', '.git', 'config'), '[core]\n\texcludesFile = relative-ignore\n');
    expect(globalExcludesFile(repository(), envOf())).toBe(path.join(root, 'repo', 'relative-ignore'));
  });

  it('reads GIT_CONFIG_GLOBAL instead of the usual global files', async () => {
    await write(path.join(home, '.gitconfig'), '[core]\n\texcludesFile = /not-this\n');
    await write(path.join(root, 'other.config'), '[core]\n\texcludesFile = /this\n');
    expect(globalExcludesFile(repository(), envOf({ GIT_CONFIG_GLOBAL: path.join(root, 'other.config') }))).toBe('/this');
  });
});

describe('readGitExcludes', () => {
  it('joins the global file and info/exclude, info/exclude last, with the workspace’s place in the work tree', async () => {
    await write(path.join(root, 'repo', '.git', 'info', 'exclude'), '*.secret\n!kept.tmp\n');
    await write(path.join(home, '.config', 'git', 'ignore'), '*.tmp\n');
    await fs.mkdir(path.join(root, 'repo', 'pkg'), { recursive: true });
    const level = readGitExcludes(path.join(root, 'repo', 'pkg'), envOf())!;
    expect(level.prefix).toBe('pkg/');
    expect(level.rules.ignores('pkg/a.secret')).toBe(true);
    expect(level.rules.ignores('pkg/a.tmp')).toBe(true);
    expect(level.rules.ignores('pkg/kept.tmp')).toBe(false);
    expect(readGitExcludes(path.join(root, 'repo'), envOf())?.prefix).toBe('');
  });

  it('is undefined outside a repository, or when no file has a rule', async () => {
    expect(readGitExcludes(home, envOf())).toBeUndefined();
    await write(path.join(root, 'repo', '.git', 'info', 'exclude'), '# git ls-files --others --exclude-from=.git/info/exclude\n');
    expect(readGitExcludes(path.join(root, 'repo'), envOf())).toBeUndefined();
  });
});
