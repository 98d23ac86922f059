import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';

// A team commits .jp/ (RFD 029): two clones query one conversation through the binary, then git
// merges them. Real git, sandboxed HOME and global config, fixed identities.
describe('two clones sharing .jp through git, through the binary', { timeout: 120_000 }, () => {
  const { root, home, env: jpEnv } = makeSandbox('jp-git-share-');
  mkdirSync(home, { recursive: true });
  const gitEnv = {
    ...jpEnv,
    GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'a',
    GIT_AUTHOR_EMAIL: 'a@example.invalid',
    GIT_COMMITTER_NAME: 'a',
    GIT_COMMITTER_EMAIL: 'a@example.invalid',
  };
  writeFileSync(gitEnv.GIT_CONFIG_GLOBAL, '[init]\n\tdefaultBranch = main\n[pull]\n\trebase = false\n');
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const jp = async (cwd: string, ...args: string[]) => {
    const result = await runJp(args, { cwd, env: jpEnv });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  const queries = (clone: string, id: string) =>
    readEvents(clone, id)
      .filter((event) => event.type === 'chat_request')
      .map((event) => event.content as string)
      .sort();

  it('both add turns: the merge has no conflict under .jp, every turn once, ls counts them, and the conversation goes on', async () => {
    const origin = path.join(root, 'origin');
    mkdirSync(origin);
    git(origin, 'init', '-q');
    await jp(origin, 'init', '--no-gitignore');
    writeFileSync(path.join(origin, 'notes.md'), 'shared notes\n');
    const created = await jp(origin, '-F', 'json', 'query', '--new', '-m', 'echo', 'q0');
    const id = JSON.parse(created.trim().split('\n').at(-1)!).conversation as string;
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'start');
    git(origin, 'checkout', '-q', '--detach');
    git(root, 'clone', '-q', origin, 'a');
    git(root, 'clone', '-q', origin, 'b');
    const [a, b] = [path.join(root, 'a'), path.join(root, 'b')];

    await jp(a, 'query', '--id', id, '-m', 'echo', '--attach', 'notes.md', 'a1');
    await jp(a, 'query', '--id', id, '-m', 'echo', 'a2');
    await jp(b, 'query', '--id', id, '-m', 'echo', '--attach', 'notes.md', 'b1');
    // Only shared files changed: no pointer, lock, cache or temporary file shows up.
    const changed = git(a, 'status', '--porcelain', '--untracked-files=all', '--', '.jp')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.slice(3));
    expect(changed.filter((file) => !file.startsWith('.jp/blobs/'))).toEqual([`.jp/conversations/${id}/events.jsonl`]);
    for (const clone of [a, b]) {
      git(clone, 'add', '-A');
      git(clone, 'commit', '-qm', path.basename(clone));
    }
    git(b, 'push', '-q', 'origin', 'HEAD:main');
    git(a, 'pull', '-q', '--no-edit', 'origin', 'main');

    expect(git(a, 'status', '--porcelain', '--', '.jp')).toBe('');
    expect(queries(a, id)).toEqual(['a1', 'a2', 'b1', 'q0']);
    const listed = JSON.parse(await jp(a, '-F', 'json', 'conversation', 'ls'));
    const entry = (Array.isArray(listed) ? listed : listed.conversations).find((c: { id: string }) => c.id === id);
    expect(entry).toMatchObject({ turns: 4 });
    await jp(a, 'query', '--id', id, '-m', 'echo', 'after');
    expect(queries(a, id)).toEqual(['a1', 'a2', 'after', 'b1', 'q0']);
    // Every blob the merged conversation refers to is there: show reads and verifies them.
    await jp(a, '-F', 'json', 'conversation', 'show', id);
  });

  it('nothing hidden: ls lists a conversation with conflict markers and a damaged one, with why; show on them is one line, exit 1', async () => {
    const ws = path.join(root, 'hidden');
    mkdirSync(ws);
    await jp(ws, 'init', '--no-gitignore');
    const ids: string[] = [];
    for (const query of ['good', 'conflicted', 'damaged']) {
      const out = await jp(ws, '-F', 'json', 'query', '--new', '-m', 'echo', query);
      ids.push(JSON.parse(out.trim().split('\n').at(-1)!).conversation as string);
    }
    const [good, conflicted, damaged] = ids as [string, string, string];
    const metadata = (id: string) => path.join(ws, '.jp', 'conversations', id, 'metadata.json');
    writeFileSync(metadata(conflicted), '<<<<<<< HEAD\n{"createdAt":"2026-01-01T00:00:00Z"}\n=======\n{"createdAt":"2026-01-02T00:00:00Z"}\n>>>>>>> side\n');
    writeFileSync(metadata(damaged), '{"title": ');

    const text = await jp(ws, 'conversation', 'ls');
    expect(text).toContain(good);
    expect(text).toMatch(new RegExp(`${conflicted}\\s+damaged\\s+metadata\\.json holds git conflict markers`));
    expect(text).toMatch(new RegExp(`${damaged}\\s+damaged\\s+metadata\\.json is damaged`));
    const json = JSON.parse(await jp(ws, '-F', 'json', 'conversation', 'ls'));
    expect(json.conversations.map((c: { id: string }) => c.id)).toEqual([good]);
    expect(json.unreadable).toEqual([
      { id: conflicted, state: 'damaged', reason: expect.stringMatching(/conflict markers/) },
      { id: damaged, state: 'damaged', reason: expect.stringMatching(/is damaged/) },
    ].sort((x, y) => (x.id < y.id ? -1 : 1)));
    expectOneLineError(await runJp(['conversation', 'show', conflicted], { cwd: ws, env: jpEnv }), 1, /metadata\.json holds git conflict markers; resolve them by hand/);
    expectOneLineError(await runJp(['query', '--id', damaged, '-m', 'echo', 'x'], { cwd: ws, env: jpEnv }), 1, /metadata\.json is missing or damaged/);
    await jp(ws, 'query', '--id', good, '-m', 'echo', 'still works');
  });
});
