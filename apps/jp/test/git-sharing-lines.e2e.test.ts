import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxedGit } from '../src/store/__fixtures__/sandboxed-git.ts';
import { expectOneLineError, makeSandbox, readEvents, runJp } from './helpers/run-jp.ts';

// Issue W through the binary and real git, three clones of one repository: after `pull --rebase`
// and after a merge, each clone's next `jp q` goes on with its own line (the echo model lists the
// turns it was sent), and the one-line notice names the right side, on both sides of each
// divergence. Then `jp c rm ID~KEY` on one clone hides that branch only, on every clone after it
// pulls; the conversation and the other branch keep every turn, and a removal never hides what it
// did not name.
describe('three clones: your own line after a pull, and removing one branch', { timeout: 300_000 }, () => {
  const { root, home, env: jpEnv } = makeSandbox('jp-git-lines-');
  const { git } = sandboxedGit('', { dir: home, env: jpEnv });
  const run = (cwd: string, ...args: string[]) => runJp(args, { cwd, env: jpEnv });
  const jp = async (cwd: string, ...args: string[]) => {
    const result = await run(cwd, ...args);
    expect(result.code, `jp ${args.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  };
  const commit = (clone: string, message: string) => {
    git(clone, 'add', '-A');
    git(clone, 'commit', '-qm', message);
  };
  /** The turns the echo model was sent, from its answer: `turn 0: "q0"` … */
  const turnsSent = (stdout: string) => [...stdout.matchAll(/^turn \d+: "([^"]*)"$/gm)].map((match) => match[1]);
  /** A turn's id, by its query, from the shared file. */
  const turnId = (clone: string, id: string, query: string) => {
    const events = readEvents(clone, id);
    const at = events.findIndex((event) => event.type === 'chat_request' && event.content === query);
    return events.slice(0, at).findLast((event) => event.type === 'turn_start')!.id as string;
  };
  const listed = async (clone: string) =>
    (JSON.parse((await jp(clone, '-F', 'json', 'conversation', 'ls')).stdout).conversations as Array<{ id: string; turns: number; yours?: boolean }>).map(({ id, turns, yours }) => ({
      id,
      turns,
      yours,
    }));

  it('each clone goes on with its own line after pull --rebase and after a merge; the notice names the right side', async () => {
    const origin = path.join(root, 'origin');
    mkdirSync(origin, { recursive: true });
    git(origin, 'init', '-q');
    await jp(origin, 'init', '--no-gitignore');
    const id = JSON.parse((await jp(origin, '-F', 'json', 'query', '--new', '-m', 'echo', 'q0')).stdout.trim().split('\n').at(-1)!).conversation as string;
    const other = JSON.parse((await jp(origin, '-F', 'json', 'query', '--new', '-m', 'echo', 'x0')).stdout.trim().split('\n').at(-1)!).conversation as string;
    commit(origin, 'start');
    git(origin, 'checkout', '-q', '--detach');
    for (const name of ['a', 'b', 'c']) git(root, 'clone', '-q', origin, name);
    const [a, b, c] = ['a', 'b', 'c'].map((name) => path.join(root, name)) as [string, string, string];
    const q = (clone: string, text: string, ...flags: string[]) => jp(clone, ...flags, 'query', '--id', id, '-m', 'echo', text);

    // a goes first and pushes; b went on too, then rebases its commit onto a's.
    await q(a, 'a1');
    commit(a, 'a1');
    git(a, 'push', '-q', 'origin', 'HEAD:main');
    await q(b, 'b1');
    commit(b, 'b1');
    git(b, 'pull', '-q', '--rebase', 'origin', 'main');
    const bKey = `${id}~${turnId(b, id, 'b1')}`;

    // b's side of the rebase: its next turn follows b1, and the notice says b's turns are the branch.
    const onB = await q(b, 'b2');
    expect(turnsSent(onB.stdout)).toEqual(['q0', 'b1', 'b2']);
    expect(onB.stderr).toMatch(new RegExp(`^jp: ${id} was continued on more than one clone after turn 0: your turns go on as ${bKey}; the other line is ${id} \\(1 turn after turn 0, the last at [^)]+\\); \`jp c use ${id}\` switches to it$`, 'm'));
    const bJson = JSON.parse((await q(b, 'b3', '-F', 'json')).stdout.trim().split('\n').at(-1)!);
    expect(bJson.conversation).toBe(bKey);
    expect(bJson.lines).toMatchObject({ yours: bKey, chosen: true });
    expect(bJson.lines.lines.map((line: { id: string; yours: boolean }) => [line.id, line.yours])).toEqual([[bKey, true], [id, false]]);
    // Said once per machine: not at b's next command.
    expect((await run(b, 'conversation', 'show', id)).stderr).not.toContain('continued on more than one clone');
    commit(b, 'b2 b3');
    git(b, 'push', '-q', 'origin', 'HEAD:main');

    // a's side: it pulls b's turns and goes on with its own line, which the shared rule names the conversation.
    git(a, 'pull', '-q', '--no-edit', 'origin', 'main');
    const onA = await q(a, 'a2');
    expect(turnsSent(onA.stdout)).toEqual(['q0', 'a1', 'a2']);
    expect(onA.stderr).toMatch(new RegExp(`^jp: ${id} was continued on more than one clone after turn 0: your turns go on here; the other line is ${bKey} \\(3 turns after turn 0, the last at [^)]+\\); \`jp c use ${bKey}\` switches to it$`, 'm'));
    commit(a, 'a2');
    git(a, 'push', '-q', 'origin', 'HEAD:main');

    // c went on before pulling, then merges (git's default).
    await q(c, 'c1');
    commit(c, 'c1');
    git(c, 'pull', '-q', '--no-edit', 'origin', 'main');
    const cKey = `${id}~${turnId(c, id, 'c1')}`;
    const onC = await q(c, 'c2');
    expect(turnsSent(onC.stdout)).toEqual(['q0', 'c1', 'c2']);
    expect(onC.stderr).toMatch(new RegExp(`^jp: ${id} was continued on more than one clone after turn 0: your turns go on as ${cKey}; the other lines are ${id} \\(2 turns .+\\), ${bKey} \\(3 turns .+\\); \`jp c use LINE\` switches to it$`, 'm'));
    commit(c, 'c2');
    git(c, 'push', '-q', 'origin', 'HEAD:main');

    // The merge's other side: a and b pull c's line and each still goes on with its own.
    git(a, 'pull', '-q', '--no-edit', 'origin', 'main');
    const a3 = await q(a, 'a3');
    expect(turnsSent(a3.stdout)).toEqual(['q0', 'a1', 'a2', 'a3']);
    expect(a3.stderr).toMatch(new RegExp(`your turns go on here; the other lines are ${bKey} \\(3 turns .+\\), ${cKey} \\(2 turns .+\\)`));
    git(b, 'pull', '-q', '--no-edit', 'origin', 'main');
    const b4 = await q(b, 'b4');
    expect(turnsSent(b4.stdout)).toEqual(['q0', 'b1', 'b2', 'b3', 'b4']);
    expect(b4.stderr).toMatch(new RegExp(`your turns go on as ${bKey}; the other lines are ${id} \\(2 turns .+\\), ${cKey}`));
    // Listing keeps the shared names; -F json says which is this clone's.
    expect((await listed(b)).filter((entry) => entry.id.startsWith(id))).toEqual(
      expect.arrayContaining([{ id, turns: 3, yours: false }, { id: bKey, turns: 5, yours: true }, { id: cKey, turns: 3, yours: false }]),
    );
    // `c use` switches: b's next turn follows the conversation's own line.
    await jp(b, 'conversation', 'use', id);
    expect(turnsSent((await q(b, 'b on main')).stdout)).toEqual(['q0', 'a1', 'a2', 'b on main']);
    // b's last two turns were a try: left out of what b commits.
    git(b, 'checkout', '-q', '--', '.');
    git(b, 'clean', '-qfd', '--', '.jp');
    commit(a, 'a3');
    git(a, 'push', '-q', 'origin', 'HEAD:main');
    for (const clone of [b, c]) git(clone, 'pull', '-q', '--no-edit', 'origin', 'main');

    // Removing a branch: a removes c's line. It is recorded as an event naming the branch.
    const rm = await jp(a, 'conversation', 'rm', '--yes', cKey);
    expect(rm.stderr).toContain(`removed the branch ${cKey}`);
    expect(readEvents(a, id).filter((event) => event.type === 'branch_removal')).toEqual([
      { type: 'branch_removal', timestamp: expect.any(String), branch: cKey.split('~')[1], turns: 3 },
    ]);
    commit(a, 'rm c');
    git(a, 'push', '-q', 'origin', 'HEAD:main');
    for (const clone of [b, c]) git(clone, 'pull', '-q', '--no-edit', 'origin', 'main');
    for (const clone of [a, b, c]) {
      expect(git(clone, 'status', '--porcelain', '--', '.jp')).toBe('');
      const ids = (await listed(clone)).map(({ id: listedId, turns }) => [listedId, turns]);
      // Only that branch is hidden: the conversation and b's line keep every turn, the other conversation stays.
      expect(ids).toEqual(expect.arrayContaining([[id, 4], [bKey, 4], [other, 1]]));
      expect(ids.map(([listedId]) => listedId)).not.toContain(cKey);
      expectOneLineError(await run(clone, 'conversation', 'show', cKey), 1, new RegExp(`^jp: ${cKey.replace('~', '~')} was removed \\(jp conversation rm, .+\\); ${id} and its other lines stay$`));
      // Its turns stay in the shared file, for git's history and for a clone that goes on with them.
      expect(readEvents(clone, id).filter((event) => event.type === 'chat_request').map((event) => event.content)).toEqual(expect.arrayContaining(['c1', 'c2']));
    }
    expectOneLineError(await run(c, 'query', '--id', cKey, '-m', 'echo', 'c3'), 1, /was removed/);
    // c's own line is gone: c goes on with the conversation's, and says nothing was lost.
    expect(turnsSent((await q(c, 'c after')).stdout)).toEqual(['q0', 'a1', 'a2', 'a3', 'c after']);
  });

  it('a removal never hides what it did not name: an unknown branch, another conversation\'s branch', async () => {
    const dir = path.join(root, 'names');
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    await jp(dir, 'init', '--no-gitignore');
    const first = JSON.parse((await jp(dir, '-F', 'json', 'query', '--new', '-m', 'echo', 'one')).stdout.trim().split('\n').at(-1)!).conversation as string;
    await jp(dir, 'query', '--id', first, '-m', 'echo', 'two');
    const second = JSON.parse((await jp(dir, '-F', 'json', 'query', '--new', '-m', 'echo', 'three')).stdout.trim().split('\n').at(-1)!).conversation as string;
    const firstTurn = turnId(dir, first, 'one');
    const before = await listed(dir);
    const t = new Date().toISOString();
    // Removals that name no branch of their conversation, however many turns they claim to have seen.
    appendFileSync(path.join(dir, '.jp', 'conversations', first, 'events.jsonl'), `${JSON.stringify({ type: 'branch_removal', timestamp: t, branch: 'ffffffffffff', turns: 99 })}\n`);
    appendFileSync(path.join(dir, '.jp', 'conversations', second, 'events.jsonl'), `${JSON.stringify({ type: 'branch_removal', timestamp: t, branch: firstTurn, turns: 99 })}\n`);
    expect(await listed(dir)).toEqual(before);
    for (const id of [first, second]) await jp(dir, 'conversation', 'show', id);
  });
});
