import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AttachmentError } from '@jp/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempWorkspace, type TempWorkspace } from '../test-support/temp-workspace.ts';
import { createFileHandler } from './file-handler.ts';

const handler = createFileHandler();
let ws: TempWorkspace;

beforeEach(async () => {
  ws = await tempWorkspace();
});
afterEach(async () => {
  await ws.cleanup();
});

async function names(inputs: string[], cwd = ws.root): Promise<string[]> {
  const ctx = ws.ctx({ cwd });
  const declarations = await Promise.all(inputs.map((input) => handler.validate(input, ctx)));
  return (await handler.resolve(declarations, ctx)).map((resource) => resource.name ?? '');
}

async function failure(inputs: string[], limits = {}): Promise<AttachmentError> {
  const ctx = ws.ctx({ limits });
  const error = await handler.resolve(inputs, ctx).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AttachmentError);
  return error as AttachmentError;
}

/** A small project: nested .gitignore files, hidden files and directories, a .git/ and .jp/. */
async function project(): Promise<void> {
  await ws.write('.gitignore', '*.log\nbuild/\n/secret.txt\n');
  await ws.write('README.md', '# r\n');
  await ws.write('secret.txt', 'no');
  await ws.write('.env', 'KEY=1');
  await ws.write('.github/workflows/ci.yml', 'on: push\n');
  await ws.write('.git/config', '[core]');
  await ws.write('.jp/config.toml', '');
  await ws.write('build/out.js', '');
  await ws.write('src/main.ts', 'main');
  await ws.write('src/z.ts', 'z');
  await ws.write('src/debug.log', 'log');
  await ws.write('src/a-b.ts', 'a-b');
  await ws.write('src/a/b.ts', 'a/b');
  await ws.write('src/.hidden.ts', 'hidden');
  await ws.write('src/.cache/x.ts', 'cached');
  await ws.write('src/gen/.gitignore', '*.gen.ts\n!keep.gen.ts\n');
  await ws.write('src/gen/drop.gen.ts', '');
  await ws.write('src/gen/keep.gen.ts', '');
  await ws.write('src/gen/api.ts', '');
  await ws.write('src/nested/.gitignore', '!important.log\n');
  await ws.write('src/nested/important.log', 'kept by a nested negation');
  await ws.write('src/nested/other.log', '');
}

describe('directories', () => {
  it('lists files recursively in byte order, honouring nested .gitignore files and hiding dot-names', async () => {
    await project();
    expect(await names(['src/'])).toEqual([
      'src/a-b.ts',
      'src/a/b.ts',
      'src/gen/api.ts',
      'src/gen/keep.gen.ts',
      'src/main.ts',
      'src/nested/important.log',
      'src/z.ts',
    ]);
  });

  it('walks the workspace root without .git/, .jp/, hidden or ignored files', async () => {
    await project();
    const all = await names(['.']);
    expect(all).toContain('README.md');
    expect(all).toContain('src/main.ts');
    expect(all.filter((name) => name.split('/').some((part) => part.startsWith('.')))).toEqual([]);
    expect(all).not.toContain('secret.txt');
    expect(all).not.toContain('build/out.js');
  });

  it('attaches hidden and ignored paths the user names explicitly', async () => {
    await project();
    expect(await names(['.github/'])).toEqual(['.github/workflows/ci.yml']);
    expect(await names(['.env', 'src/debug.log'])).toEqual(['.env', 'src/debug.log']);
    // build/ is ignored by the root .gitignore, but naming it attaches it.
    expect(await names(['build'])).toEqual(['build/out.js']);
  });

  it('follows symlinks to files inside the workspace, skips ones leading outside with a warning', async () => {
    await ws.write('docs/guide.md', 'guide');
    await ws.write('shared/real.md', 'real');
    await fs.writeFile(path.join(ws.outside, 'secret.md'), 'secret');
    await fs.symlink(path.join(ws.root, 'shared/real.md'), path.join(ws.root, 'docs/link.md'));
    await fs.symlink(path.join(ws.outside, 'secret.md'), path.join(ws.root, 'docs/escape.md'));
    await fs.symlink(ws.outside, path.join(ws.root, 'docs/outdir'));
    const resources = await handler.resolve(['docs/'], ws.ctx());
    expect(resources.map((resource) => [resource.name, resource.uri])).toEqual([
      ['docs/guide.md', pathToFileURL(path.join(ws.root, 'docs/guide.md')).href],
      ['shared/real.md', pathToFileURL(path.join(ws.root, 'shared/real.md')).href],
    ]);
    expect(ws.warnings).toEqual([
      'docs/: skipped docs/escape.md, a symbolic link to a file outside the workspace (attach the link by name to send a snapshot of it)',
    ]);
    expect(ws.warnings.join('\n')).not.toContain(ws.outside);
  });

  it('fails on a directory with no files left after the rules', async () => {
    await ws.write('empty/.gitignore', '*\n');
    await ws.write('empty/a.tmp', '');
    await ws.write('empty/.hidden', '');
    const error = await failure(['empty/']);
    expect(error.message).toMatch(/^empty\/: no files left after \.gitignore and hidden-file rules/);
  });

  it('fails when a directory has more files than maxFiles, naming both numbers', async () => {
    for (const name of ['a', 'b', 'c', 'd']) await ws.write(`many/${name}.txt`, name);
    const error = await failure(['many/'], { maxFiles: 3 });
    expect(error.message).toBe(
      'many/ expands to 4 files, more than the limit of 3 (conversation.attachment.max_files); attach a narrower directory or glob, or raise the limit',
    );
    expect((await handler.resolve(['many/'], ws.ctx({ limits: { maxFiles: 4 } }))).length).toBe(4);
  });
});

describe('globs', () => {
  it('matches from the workspace root with the same ignore rules, sorted', async () => {
    await project();
    expect(await names(['src/**/*.ts'])).toEqual(['src/a-b.ts', 'src/a/b.ts', 'src/gen/api.ts', 'src/gen/keep.gen.ts', 'src/main.ts', 'src/z.ts']);
    expect(await names(['**/*.log'])).toEqual(['src/nested/important.log']);
    expect(await names(['*.ts'], path.join(ws.root, 'src'))).toEqual(['src/a-b.ts', 'src/main.ts', 'src/z.ts']);
    expect(await names(['src/{main,z}.ts'])).toEqual(['src/main.ts', 'src/z.ts']);
  });

  it('reaches hidden files only when the pattern names them', async () => {
    await project();
    // .github/workflows/ci.yml is the only YAML file, and `**` does not enter hidden directories.
    expect((await failure(['**/*.yml'])).message).toMatch(/^glob \*\*\/\*\.yml matched no files/);
    expect(await names(['src/**/*.ts'])).not.toContain('src/.cache/x.ts');
  });

  it('reaches a hidden directory named in the pattern', async () => {
    await project();
    expect(await names(['.github/**/*.yml'])).toEqual(['.github/workflows/ci.yml']);
    expect(await names(['src/.*.ts'])).toEqual(['src/.hidden.ts']);
    // .git/ and .jp/ stay out even when a pattern reaches into hidden directories.
    expect(await names(['.*/**'])).toEqual(['.github/workflows/ci.yml']);
  });

  it('fails on a glob that matches nothing, including one whose directory is missing', async () => {
    await project();
    expect((await failure(['**/*.cobol'])).message).toMatch(/^glob \*\*\/\*\.cobol matched no files/);
    expect((await failure(['nowhere/**/*.ts'])).message).toBe('glob nowhere/**/*.ts matched no files under nowhere/ (hidden and .gitignored files are skipped)');
  });

  it('names where a glob that matched nothing was looked for, from the directory it was typed in', async () => {
    await project();
    const fromSrc = ws.ctx({ cwd: path.join(ws.root, 'src') });
    const typed = async (input: string) => {
      const declaration = await handler.validate(input, fromSrc);
      return handler.resolve([declaration], fromSrc).then(() => expect.unreachable(), (caught: Error) => caught.message);
    };
    expect(await typed('*.cobol')).toBe('glob src/*.cobol matched no files under src/ (hidden and .gitignored files are skipped)');
    expect(await typed('nested/**/*.cobol')).toBe('glob src/nested/**/*.cobol matched no files under src/nested/ (hidden and .gitignored files are skipped)');
    expect((await failure(['**/*.cobol'])).message).toBe('glob **/*.cobol matched no files under the workspace root (hidden and .gitignored files are skipped)');
  });

  it('escapes the literal part of a pattern whose directory has glob characters', async () => {
    await ws.write('v[1]/a.md', 'a');
    await ws.write('v1/b.md', 'b');
    const declaration = await handler.validate('*.md', ws.ctx({ cwd: path.join(ws.root, 'v[1]') }));
    expect(declaration).toBe('v\\[1\\]/*.md');
    expect((await handler.resolve([declaration], ws.ctx())).map((resource) => resource.name)).toEqual(['v[1]/a.md']);
  });

  it('counts a glob against maxFiles', async () => {
    for (const name of ['a', 'b', 'c']) await ws.write(`g/${name}.txt`, name);
    expect((await failure(['g/*.txt'], { maxFiles: 2 })).message).toMatch(/^g\/\*\.txt expands to 3 files, more than the limit of 2/);
  });

  it('keeps each URI once across declarations, in declaration order', async () => {
    await ws.write('src/b.ts', 'b');
    await ws.write('src/a.ts', 'a');
    expect(await names(['src/b.ts', 'src/', 'src/*.ts'])).toEqual(['src/b.ts', 'src/a.ts']);
  });
});

describe('git excludes', () => {
  let home: string;
  beforeEach(async () => {
    // git's own files as this test writes them: its HOME, no XDG_CONFIG_HOME, no system config.
    home = path.join(ws.outside, 'home');
    await fs.mkdir(home, { recursive: true });
    vi.stubEnv('HOME', home);
    vi.stubEnv('XDG_CONFIG_HOME', '');
    vi.stubEnv('GIT_CONFIG_GLOBAL', undefined);
    vi.stubEnv('GIT_CONFIG_NOSYSTEM', '1');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  async function repository(): Promise<void> {
    await ws.write('.git/HEAD', 'ref: refs/heads/main\n');
    await ws.write('.gitignore', '*.log\n!wanted.tmp\n');
    await ws.write('src/main.ts', 'main');
    await ws.write('src/notes.local', 'private');
    await ws.write('src/scratch/x.ts', 'x');
    await ws.write('src/a.tmp', 'tmp');
    await ws.write('src/wanted.tmp', 'wanted');
    await ws.write('src/debug.log', 'log');
  }

  it('leave out what .git/info/exclude excludes, in a directory and a glob, as git does', async () => {
    await repository();
    await ws.write('.git/info/exclude', '# local only\n*.local\nscratch/\n');
    expect(await names(['src/'])).toEqual(['src/a.tmp', 'src/main.ts', 'src/wanted.tmp']);
    expect(await names(['src/**/*'])).toEqual(['src/a.tmp', 'src/main.ts', 'src/wanted.tmp']);
    // Named explicitly, an excluded file or directory is attached, as an ignored one is.
    expect(await names(['src/notes.local', 'src/scratch/'])).toEqual(['src/notes.local', 'src/scratch/x.ts']);
  });

  it('leave out what the global excludes file excludes; a .gitignore rule outranks both', async () => {
    await repository();
    await ws.write('.git/info/exclude', '*.local\n');
    await fs.mkdir(path.join(home, '.config', 'git'), { recursive: true });
    await fs.writeFile(path.join(home, '.config', 'git', 'ignore'), '*.tmp\n');
    expect(await names(['src/'])).toEqual(['src/main.ts', 'src/scratch/x.ts', 'src/wanted.tmp']);
  });

  it('read core.excludesFile from ~/.gitconfig, with ~ expanded', async () => {
    await repository();
    await fs.writeFile(path.join(home, '.gitconfig'), '[core]\n\texcludesFile = ~/.my-ignore\n');
    await fs.writeFile(path.join(home, '.my-ignore'), 'main.ts\n');
    expect(await names(['src/'])).toEqual(['src/a.tmp', 'src/notes.local', 'src/scratch/x.ts', 'src/wanted.tmp']);
  });

  it('find the repository above a workspace in a subdirectory, and a linked worktree’s shared info/exclude', async () => {
    // The workspace is the repository's pkg/ directory; the patterns start at the repository root.
    const repo = path.join(ws.outside, 'repo');
    await fs.mkdir(path.join(repo, '.git', 'info'), { recursive: true });
    await fs.writeFile(path.join(repo, '.git', 'info', 'exclude'), '/pkg/src/main.ts\n');
    await fs.mkdir(path.join(repo, 'pkg', 'src'), { recursive: true });
    await fs.writeFile(path.join(repo, 'pkg', 'src', 'main.ts'), 'main');
    await fs.writeFile(path.join(repo, 'pkg', 'src', 'other.ts'), 'other');
    const inPkg = { ...ws.ctx(), workspaceRoot: path.join(repo, 'pkg'), cwd: path.join(repo, 'pkg') };
    expect((await handler.resolve(['src/'], inPkg)).map((resource) => resource.name)).toEqual(['src/other.ts']);

    // A linked worktree: .git is a file naming a git directory whose commondir is repo/.git.
    await fs.mkdir(path.join(repo, '.git', 'worktrees', 'wt'), { recursive: true });
    await fs.writeFile(path.join(repo, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    await fs.writeFile(path.join(repo, '.git', 'info', 'exclude'), 'secret.txt\n');
    await ws.write('.git', `gitdir: ${path.join(repo, '.git', 'worktrees', 'wt')}\n`);
    await ws.write('docs/secret.txt', 's');
    await ws.write('docs/guide.md', 'g');
    expect(await names(['docs/'])).toEqual(['docs/guide.md']);
  });
});
