import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxedGit } from './__fixtures__/sandboxed-git.ts';
import { ensureJpGitFiles, JP_GITATTRIBUTES, JP_GITIGNORE } from './jp-git-files.ts';

describe('ensureJpGitFiles', () => {
  it('writes both files once and leaves a committed one as it is', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jp-gitfiles-'));
    writeFileSync(path.join(dir, '.gitignore'), 'team/\n');
    expect(ensureJpGitFiles(dir)).toEqual(['.gitattributes']);
    expect(readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe('team/\n');
    expect(readFileSync(path.join(dir, '.gitattributes'), 'utf8')).toBe(JP_GITATTRIBUTES);
    expect(ensureJpGitFiles(dir)).toEqual([]);
  });
});

// Real git, sandboxed: no user or system configuration, fixed identities. The union driver is
// built in, so nothing but the committed .jp/.gitattributes makes two clones' appends merge.
describe('events.jsonl through git (real git)', () => {
  const { root, git } = sandboxedGit('jp-git-union-');
  const events = (clone: string) => path.join(clone, '.jp', 'conversations', 'c1', 'events.jsonl');
  const turn = (clone: string, query: string) => {
    appendFileSync(events(clone), `${JSON.stringify({ type: 'turn_start', query })}\n`);
    git(clone, 'commit', '-qam', query);
  };
  const queries = (clone: string) =>
    readFileSync(events(clone), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { query: string }).query)
      .sort();

  /** An origin with one conversation, and clones `a` and `b` of it, under a fresh directory. */
  const setup = (name: string) => {
    const base = path.join(root, name);
    const origin = path.join(base, 'origin');
    mkdirSync(path.join(origin, '.jp', 'conversations', 'c1'), { recursive: true });
    git(origin, 'init', '-q');
    ensureJpGitFiles(path.join(origin, '.jp'));
    writeFileSync(events(origin), `${JSON.stringify({ type: 'turn_start', query: 'q0' })}\n`);
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'start');
    // Detached, so that clones may push to main.
    git(origin, 'checkout', '-q', '--detach');
    git(base, 'clone', '-q', origin, 'a');
    git(base, 'clone', '-q', origin, 'b');
    return { a: path.join(base, 'a'), b: path.join(base, 'b') };
  };
  const cleanUnderJp = (clone: string) => expect(git(clone, 'status', '--porcelain', '--', '.jp')).toBe('');

  it('merge keeps every turn of both sides once', () => {
    const { a, b } = setup('merge');
    turn(a, 'a1');
    turn(a, 'a2');
    turn(b, 'b1');
    git(b, 'push', '-q', 'origin', 'HEAD:side');
    git(a, 'fetch', '-q', 'origin');
    git(a, 'merge', '-q', '--no-edit', 'origin/side');
    expect(queries(a)).toEqual(['a1', 'a2', 'b1', 'q0']);
    cleanUnderJp(a);
  });

  it('pull --rebase keeps every turn of both sides once', () => {
    const { a, b } = setup('rebase');
    turn(a, 'a1');
    git(a, 'push', '-q', 'origin', 'HEAD:main');
    turn(b, 'b1');
    turn(b, 'b2');
    git(b, 'pull', '-q', '--rebase', 'origin', 'main');
    expect(queries(b)).toEqual(['a1', 'b1', 'b2', 'q0']);
    cleanUnderJp(b);
  });

  // A picked turn's diff has the turns before it as context; with nothing to match them on this
  // side, the union driver keeps them: a turn arrives with the turns it follows, each once.
  it('cherry-pick of a single commit brings its turn, with the turns it follows, each once', () => {
    const { a, b } = setup('pick');
    turn(a, 'a1');
    turn(a, 'a2');
    turn(b, 'b1');
    git(a, 'push', '-q', 'origin', 'HEAD:side');
    git(b, 'fetch', '-q', 'origin');
    git(b, 'cherry-pick', git(b, 'rev-parse', 'origin/side').trim());
    expect(queries(b)).toEqual(['a1', 'a2', 'b1', 'q0']);
    cleanUnderJp(b);
  });

  it('ignores the machine-local state it lists', () => {
    const { a } = setup('ignored');
    mkdirSync(path.join(a, '.jp', 'local'), { recursive: true });
    writeFileSync(path.join(a, '.jp', 'local', 'active'), 'c1\n');
    writeFileSync(path.join(a, '.jp', 'active'), 'c1\n');
    writeFileSync(path.join(a, '.jp', 'conversations', 'c1', 'lock'), '1\n');
    writeFileSync(path.join(a, '.jp', 'blobs.lock'), '1\n');
    expect(JP_GITIGNORE).toContain('/local/');
    cleanUnderJp(a);
  });
});
