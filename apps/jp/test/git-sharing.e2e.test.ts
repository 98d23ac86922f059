import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxedGit } from '../src/store/__fixtures__/sandboxed-git.ts';
import { expectOneLineError, makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';

// A team commits .jp/ (RFD 029): two clones query one conversation through the binary, then git
// merges them. Real git, sandboxed HOME and global config, fixed identities.
describe('two clones sharing .jp through git, through the binary', { timeout: 120_000 }, () => {
  const { root, home, env: jpEnv } = makeSandbox('jp-git-share-');
  const { git } = sandboxedGit('', { dir: home, env: jpEnv });
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
    const { a, b, id } = await twoClones('both');

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
    // Every turn of both sides is in the file once.
    expect(queries(a, id)).toEqual(['a1', 'a2', 'b1', 'q0']);
    // Both went on from q0: a's turns came first and go on as the conversation, b's are its branch (RFD 029).
    const ls = await runJp(['-F', 'json', 'conversation', 'ls'], { cwd: a, env: jpEnv });
    const conversations = JSON.parse(ls.stdout).conversations as Array<{ id: string; turns: number; forkedFrom: unknown; title: string }>;
    expect(conversations.find((c) => c.id === id)).toMatchObject({ turns: 3 });
    const branch = conversations.find((c) => c.id.startsWith(`${id}~`))!;
    expect(branch).toMatchObject({ turns: 2, forkedFrom: { id, turn: 0 }, title: expect.stringMatching(/continued elsewhere after turn 0/) });
    const lineOf = async (conversation: string) =>
      (JSON.parse(await jp(a, '-F', 'json', 'conversation', 'show', conversation)).events as Array<{ type: string; content?: string }>)
        .filter((event) => event.type === 'chat_request')
        .map((event) => event.content);
    expect(await lineOf(id)).toEqual(['q0', 'a1', 'a2']);
    expect(await lineOf(branch.id)).toEqual(['q0', 'b1']);
    // Said once, by the text listing, in a's own terms: a's turns are the conversation's line.
    const told = await runJp(['conversation', 'ls'], { cwd: a, env: jpEnv });
    expect(told.stderr).toMatch(new RegExp(`jp: ${id} was continued on more than one clone after turn 0: your turns go on here; the other line is ${branch.id.replace('~', '~')} \\(1 turn after turn 0, the last at [^)]+\\); \`jp c use ${branch.id}\` switches to it`));
    expect((await runJp(['conversation', 'ls'], { cwd: a, env: jpEnv })).stderr).not.toContain('continued on more than one clone');
    // Both lines go on; the same split on the other clone after it pulls. A turn on the branch makes
    // it a's line (its tip); `c use ID` chooses the conversation's own line again.
    await jp(a, 'query', '--id', branch.id, '-m', 'echo', 'b2 on a');
    expect(await lineOf(id)).toEqual(['q0', 'b1', 'b2 on a']);
    await jp(a, 'conversation', 'use', id);
    await jp(a, 'query', '--id', id, '-m', 'echo', 'after');
    expect(await lineOf(id)).toEqual(['q0', 'a1', 'a2', 'after']);
    expect(await lineOf(branch.id)).toEqual(['q0', 'b1', 'b2 on a']);
    expect(queries(a, id)).toEqual(['a1', 'a2', 'after', 'b1', 'b2 on a', 'q0']);
    git(a, 'add', '-A');
    git(a, 'commit', '-qm', 'a after the merge');
    git(a, 'push', '-q', 'origin', 'HEAD:main');
    git(b, 'pull', '-q', '--no-edit', 'origin', 'main');
    expect(git(b, 'status', '--porcelain', '--', '.jp')).toBe('');
    const onB = JSON.parse(await jp(b, '-F', 'json', 'conversation', 'ls')).conversations.map((c: { id: string; turns: number }) => [c.id, c.turns]).sort();
    expect(onB).toEqual([[id, 4], [branch.id, 3]].sort());
    // Every blob the merged conversation refers to is there: show reads and verifies them.
    await jp(a, '-F', 'json', 'conversation', 'show', id);
    await jp(a, '-F', 'json', 'conversation', 'show', branch.id);
  });

  /** origin with one conversation (notes.md attached in its first turn), cloned as a and b. */
  async function twoClones(name: string): Promise<{ a: string; b: string; id: string; origin: string }> {
    const dir = path.join(root, name);
    const origin = path.join(dir, 'origin');
    mkdirSync(origin, { recursive: true });
    git(origin, 'init', '-q');
    await jp(origin, 'init', '--no-gitignore');
    writeFileSync(path.join(origin, 'notes.md'), `shared notes ${'x'.repeat(2000)}\n`);
    const created = await jp(origin, '-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'notes.md', 'q0');
    const id = JSON.parse(created.trim().split('\n').at(-1)!).conversation as string;
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'start');
    git(origin, 'checkout', '-q', '--detach');
    git(dir, 'clone', '-q', origin, 'a');
    git(dir, 'clone', '-q', origin, 'b');
    return { a: path.join(dir, 'a'), b: path.join(dir, 'b'), id, origin };
  }
  const commit = (clone: string, message: string) => {
    git(clone, 'add', '-A');
    git(clone, 'commit', '-qm', message);
  };
  const listed = async (clone: string) => JSON.parse(await jp(clone, '-F', 'json', 'conversation', 'ls')).conversations as Array<{ id: string; title?: string; turns: number }>;

  it('both rename the conversation: no conflict, and both clones settle on the same, newest title', async () => {
    const { a, b, id } = await twoClones('titles');
    await jp(a, 'query', '--id', id, '-m', 'echo', '--title', 'title from a', 'a1');
    await jp(b, 'query', '--id', id, '-m', 'echo', '--title', 'title from b', 'b1');
    commit(a, 'a');
    commit(b, 'b');
    git(b, 'push', '-q', 'origin', 'HEAD:main');
    git(a, 'pull', '-q', '--no-edit', 'origin', 'main');
    git(a, 'push', '-q', 'origin', 'HEAD:main');
    git(b, 'pull', '-q', '--rebase', 'origin', 'main');
    for (const clone of [a, b]) {
      expect(git(clone, 'status', '--porcelain', '--', '.jp')).toBe('');
      expect((await listed(clone)).find((c) => c.id === id)?.title).toBe('title from b');
      expect(queries(clone, id)).toEqual(['a1', 'b1', 'q0']);
    }
  });

  it('one removes the conversation and runs gc, the other goes on with it (the same file again): the continuation stays, every blob is there', async () => {
    const { a, b, id } = await twoClones('remove');
    const blobsBefore = git(a, 'ls-files', '.jp/blobs').split('\n').filter(Boolean);
    const removed = await runJp(['conversation', 'rm', id, '--yes'], { cwd: a, env: jpEnv });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toMatch(/git tracks it: the removal is recorded/);
    expect((await listed(a)).map((c) => c.id)).not.toContain(id);
    expectOneLineError(await runJp(['conversation', 'show', id], { cwd: a, env: jpEnv }), 1, /was removed \(jp conversation rm/);
    await jp(a, 'gc');
    // The blob only the removed conversation refers to is still there: its lines stay, and git tracks it.
    expect(git(a, 'status', '--porcelain', '--', '.jp/blobs')).toBe('');
    commit(a, 'a removes');
    await jp(b, 'query', '--id', id, '-m', 'echo', '--attach', 'notes.md', 'b1');
    commit(b, 'b goes on');
    git(b, 'push', '-q', 'origin', 'HEAD:main');
    git(a, 'pull', '-q', '--no-edit', 'origin', 'main');
    expect(git(a, 'status', '--porcelain', '--', '.jp')).toBe('');
    expect(git(a, 'ls-files', '.jp/blobs').split('\n').filter(Boolean)).toEqual(blobsBefore);
    // b added a turn the removal did not see: the conversation stays, whole.
    expect((await listed(a)).find((c) => c.id === id)).toMatchObject({ turns: 2 });
    expect(queries(a, id)).toEqual(['b1', 'q0']);
    const shown = await jp(a, 'conversation', 'show', id);
    expect(shown).toMatch(/removed \(jp conversation rm\) after 1 turn/);
    await jp(a, '-F', 'json', 'conversation', 'show', id);
    await jp(a, 'query', '--id', id, '-m', 'echo', 'after the merge');
  });

  it('a removal nobody went on from stays a removal after the merge; cherry-picking it is clean too', async () => {
    const { a, b, id } = await twoClones('removal-stands');
    await jp(a, 'conversation', 'rm', id, '--yes');
    commit(a, 'a removes');
    await jp(b, 'query', '--new', '-m', 'echo', 'other conversation');
    commit(b, 'b starts another');
    git(a, 'push', '-q', 'origin', 'HEAD:main');
    git(b, 'fetch', '-q', 'origin', 'main');
    git(b, 'cherry-pick', 'FETCH_HEAD');
    expect(git(b, 'status', '--porcelain', '--', '.jp')).toBe('');
    const ids = (await listed(b)).map((c) => c.id);
    expect(ids).not.toContain(id);
    expect(ids).toHaveLength(1);
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

    // Damage inside events.jsonl is listed too: conflict markers a hand merge left, a line that is not JSON.
    const events = (id: string) => path.join(ws, '.jp', 'conversations', id, 'events.jsonl');
    const marked = JSON.parse((await jp(ws, '-F', 'json', 'query', '--new', '-m', 'echo', 'marked')).trim().split('\n').at(-1)!).conversation as string;
    const torn = JSON.parse((await jp(ws, '-F', 'json', 'query', '--new', '-m', 'echo', 'torn')).trim().split('\n').at(-1)!).conversation as string;
    const [first, ...rest] = readFileSync(events(marked), 'utf8').split('\n');
    writeFileSync(events(marked), [first, '<<<<<<< HEAD', ...rest.slice(0, 1), '=======', '>>>>>>> side', ...rest.slice(1)].join('\n'));
    const lines = readFileSync(events(torn), 'utf8').split('\n');
    writeFileSync(events(torn), [lines[0], '{"type":"chat_req', ...lines.slice(1)].join('\n'));
    const again = JSON.parse(await jp(ws, '-F', 'json', 'conversation', 'ls'));
    expect(again.conversations.map((c: { id: string }) => c.id)).not.toContain(marked);
    expect(again.unreadable).toEqual(
      expect.arrayContaining([
        { id: marked, state: 'damaged', reason: 'events.jsonl line 2 holds git conflict markers; resolve them by hand, keeping both sides\' lines' },
        { id: torn, state: 'damaged', reason: 'events.jsonl line 2 is damaged (not a JSON object); repair or remove that line' },
      ]),
    );
    expectOneLineError(await runJp(['conversation', 'show', marked], { cwd: ws, env: jpEnv }), 1, /events\.jsonl line 2 is damaged/);
    await jp(ws, 'query', '--id', good, '-m', 'echo', 'others keep working');
  });
});
