import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxedGit } from '../src/store/__fixtures__/sandboxed-git.ts';
import { makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';

// Three clones of one repository each run a scripted history on `.jp/` — turns on one shared
// conversation, a new conversation, a fork, attachments added and removed, a title, `jp gc` — and
// are brought together by git's default merge, `pull --rebase` and the cherry-pick of single
// commits (RFD 029). After each: git exits 0, `git status` is clean under `.jp/`, every turn of
// every side is in its conversation's file exactly once, every conversation (branches included)
// loads with its blobs verified, and `jp q` works on every one of them.
describe('three clones with scripted histories, through the binary and real git', { timeout: 300_000 }, () => {
  const { root, home, env: jpEnv } = makeSandbox('jp-git-three-');
  const { git } = sandboxedGit('', { dir: home, env: jpEnv });
  const jp = async (cwd: string, ...args: string[]): Promise<string> => {
    const result = await runJp(args, { cwd, env: jpEnv });
    expect(result.code, `jp ${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result.stdout;
  };
  const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);
  const commit = (clone: string, message: string) => {
    git(clone, 'add', '-A');
    git(clone, 'commit', '-qm', message);
  };

  /** The query texts in one conversation's file, as stored (a fork's file holds the turns it copied). */
  const storedQueries = (clone: string, id: string) =>
    readEvents(clone, id)
      .filter((event) => event.type === 'chat_request')
      .map((event) => event.content as string);

  /** What each clone's script made, for the checks. */
  interface Made {
    name: string;
    /** Its own turns on the shared conversation. */
    shared: string[];
    /** The conversation it started and the fork it made, when it did. */
    newId?: string;
    forkId?: string;
  }

  /** One clone's history: turns on the shared conversation, a new one, a fork, attachments added and removed, a title, gc. */
  async function script(clone: string, name: string, shared: string, gc: boolean): Promise<Made> {
    writeFileSync(path.join(clone, `${name}.txt`), `${name}'s own file\n`);
    await jp(clone, 'query', '--id', shared, '-m', 'echo', `${name}-x1`);
    const made = await jp(clone, '-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'notes.md', `${name}-new`);
    const newId = lastJson(made).conversation as string;
    const fork = lastJson(await jp(clone, '-F', 'json', 'conversation', 'fork', shared)).id as string;
    await jp(clone, 'query', '--id', fork, '-m', 'echo', `${name}-fork`);
    await jp(clone, 'attachment', 'add', `${name}.txt`, '--id', shared);
    await jp(clone, 'query', '--id', shared, '-m', 'echo', `${name}-x2`);
    await jp(clone, 'attachment', 'rm', `${name}.txt`, '--id', shared);
    await jp(clone, 'query', '--id', shared, '-m', 'echo', '--title', `title from ${name}`, `${name}-x3`);
    if (gc) await jp(clone, 'gc');
    commit(clone, name);
    return { name, shared: [`${name}-x1`, `${name}-x2`, `${name}-x3`], newId, forkId: fork };
  }

  /** Everything the contract promises after an integration, on `clone`, given what the merged sides made. */
  async function expectWhole(clone: string, shared: string, sides: Made[]): Promise<void> {
    expect(git(clone, 'status', '--porcelain', '--untracked-files=all', '--', '.jp')).toBe('');
    // Every turn once: the shared file holds q0 and each side's own turns, each exactly once.
    const expectedShared = ['q0', ...sides.flatMap((side) => side.shared)].sort();
    expect(storedQueries(clone, shared).sort()).toEqual(expectedShared);
    for (const side of sides) {
      if (side.newId !== undefined) expect(storedQueries(clone, side.newId)).toEqual([`${side.name}-new`]);
      // A fork copies the turns its source had (q0 and this side's first), then has its own: each once.
      if (side.forkId !== undefined) expect(storedQueries(clone, side.forkId)).toEqual(['q0', `${side.name}-x1`, `${side.name}-fork`]);
    }
    const conversations = (JSON.parse(await jp(clone, '-F', 'json', 'conversation', 'ls')) as { conversations: Array<{ id: string; turns: number }>; unreadable?: unknown[] });
    expect(conversations.unreadable ?? []).toEqual([]);
    const ids = conversations.conversations.map((c) => c.id);
    for (const side of sides) expect(ids).toEqual(expect.arrayContaining([side.newId, side.forkId].filter((id) => id !== undefined)));
    // The shared conversation continued on every side became one line and a branch per other side.
    expect(ids.filter((id) => id === shared || id.startsWith(`${shared}~`))).toHaveLength(sides.length);
    // Each line holds q0 and one side's own turns, in order; together they hold every side's turns.
    // Read as the shared rule names them: on a copy without this machine's state (.jp/local/), whose
    // tips would make `show ID` this clone's own line (issue W).
    const view = path.join(root, `view-${path.basename(clone)}-${Date.now()}`);
    cpSync(clone, view, { recursive: true });
    rmSync(path.join(view, '.jp', 'local'), { recursive: true, force: true });
    const lines: string[][] = [];
    try {
      for (const id of ids.filter((id) => id === shared || id.startsWith(`${shared}~`))) {
        const events = lastJson(await jp(view, '-F', 'json', 'conversation', 'show', id)).events as Array<{ type: string; content?: string }>;
        lines.push(events.filter((event) => event.type === 'chat_request').map((event) => event.content!));
      }
    } finally {
      rmSync(view, { recursive: true, force: true });
    }
    expect(lines.map((line) => line.slice(1)).sort()).toEqual(sides.map((side) => side.shared).sort());
    for (const line of lines) expect(line[0]).toBe('q0');
    // Every conversation loads with every blob verified, and goes on — tried on a copy, so the clone stays as merged.
    const trial = path.join(root, `trial-${path.basename(clone)}-${Date.now()}`);
    cpSync(clone, trial, { recursive: true });
    try {
      for (const id of ids) {
        await jp(trial, '-F', 'json', 'conversation', 'show', id);
        await jp(trial, 'query', '--id', id, '-m', 'echo', `goes on ${id}`);
      }
    } finally {
      rmSync(trial, { recursive: true, force: true });
    }
  }

  it('merge, pull --rebase and cherry-pick: no conflict under .jp, every turn once, every blob there, every conversation goes on', async () => {
    const origin = path.join(root, 'origin');
    mkdirSync(origin, { recursive: true });
    git(origin, 'init', '-q');
    await jp(origin, 'init', '--no-gitignore');
    writeFileSync(path.join(origin, 'notes.md'), `shared notes ${'x'.repeat(2000)}\n`);
    const shared = lastJson(await jp(origin, '-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'notes.md', 'q0')).conversation as string;
    commit(origin, 'start');
    git(origin, 'checkout', '-q', '--detach');
    for (const name of ['a', 'b', 'c', 'd']) git(root, 'clone', '-q', origin, name);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => path.join(root, name)) as [string, string, string, string];

    // a, b and c each run their history; b runs `jp gc` before anything is merged.
    const madeA = await script(a, 'a', shared, false);
    const madeB = await script(b, 'b', shared, true);
    const madeC = await script(c, 'c', shared, false);

    // b pushes; a merges it with git's default merge.
    git(b, 'push', '-q', 'origin', 'HEAD:main');
    git(a, 'pull', '-q', '--no-edit', 'origin', 'main');
    await expectWhole(a, shared, [madeA, madeB]);
    git(a, 'push', '-q', 'origin', 'HEAD:main');

    // c rebases its history onto that.
    git(c, 'pull', '-q', '--rebase', 'origin', 'main');
    await expectWhole(c, shared, [madeA, madeB, madeC]);
    git(c, 'push', '-q', 'origin', 'HEAD:main');

    // d, still at the start, makes two commits of one turn each; c cherry-picks only the second.
    await jp(d, 'query', '--id', shared, '-m', 'echo', 'd-x1');
    commit(d, 'd one');
    await jp(d, 'query', '--id', shared, '-m', 'echo', 'd-x2');
    commit(d, 'd two');
    git(c, 'fetch', '-q', d, 'HEAD');
    git(c, 'cherry-pick', 'FETCH_HEAD');
    // The picked turn arrives with the turn it follows (RFD 029): d's line is whole, once.
    const madeD: Made = { name: 'd', shared: ['d-x1', 'd-x2'] };
    await expectWhole(c, shared, [madeA, madeB, madeC, madeD]);

    // Finally a and b pull everything and agree with c, file for file under .jp/.
    for (const clone of [a, b]) {
      git(clone, 'pull', '-q', '--no-edit', c, 'HEAD');
      expect(git(clone, 'status', '--porcelain', '--', '.jp')).toBe('');
      expect(git(clone, 'diff', '--stat', 'HEAD', 'FETCH_HEAD', '--', '.jp').trim()).toBe('');
    }
    expect(readdirSync(path.join(a, '.jp', 'conversations')).sort()).toEqual(readdirSync(path.join(c, '.jp', 'conversations')).sort());
  });
});
