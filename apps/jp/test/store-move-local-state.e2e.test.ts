import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJp } from './helpers/run-jp.ts';
import { lastJson, makeWorkspace, seededRandom, startJp, waitForOldChangeTimes, writeFiles, type Workspace } from './helpers/store-harness.ts';

// A workspace made before RFD 029 keeps this machine's state beside the shared files: `.jp/active`
// and `.jp/cache/`. The first jp run moves both under `.jp/local/` and says so once. Killed at
// any point (a named point in the move, or a random moment of the run), every piece is in its old
// place or its new one, and the next run loads, finishes the move and keeps the active choice.

const ITERATIONS = 120;
const POINTS = ['migration:local', 'migration:active', 'migration:cache'];
const WARNING = /moved this machine's state \(.*\) into \.jp\/local\/, which git ignores/;

type Variant = 'both' | 'active only' | 'cache only' | 'an older jp wrote both again after the move';
const VARIANTS: Variant[] = ['both', 'active only', 'cache only', 'an older jp wrote both again after the move'];

describe('moving local state out of the shared files', () => {
  let template: Workspace;
  let ids: string[] = [];
  let active = '';
  let older = '';
  let cache = '';

  beforeAll(async () => {
    template = await makeWorkspace('jp-move-local-');
    writeFiles(template.ws, { 'src/a.txt': 'a\n', 'src/b.txt': 'b\n' });
    // Files the cache remembers are settled ones (RFD 002): the template's cache must hold them.
    await waitForOldChangeTimes();
    for (const text of ['one', 'two']) {
      const made = await template.jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'src/', text]);
      expect(made.code, made.stderr).toBe(0);
      ids.push(lastJson(made.stdout).conversation);
    }
    ids = ids.sort();
    [older, active] = [ids.find((id) => id !== lastOf(template))!, lastOf(template)];
    cache = readFileSync(path.join(template.ws, '.jp', 'local', 'cache', 'file-contents.json'), 'utf8');
    expect(JSON.parse(cache)).toBeTypeOf('object');
  }, 60_000);
  afterAll(() => rmSync(template.root, { recursive: true, force: true }));

  function lastOf(w: Workspace): string {
    return readFileSync(path.join(w.ws, '.jp', 'local', 'active'), 'utf8').trim();
  }

  /** A copy of the template laid out as a pre-RFD-029 jp left it, in one of the variants. */
  function oldLayout(at: string, variant: Variant): string {
    cpSync(template.ws, at, { recursive: true });
    const jp = path.join(at, '.jp');
    for (const name of ['.gitignore', '.gitattributes']) rmSync(path.join(jp, name), { force: true });
    if (variant === 'an older jp wrote both again after the move') {
      // The move was done; then an older jp chose the other conversation and wrote a cache of its own.
      writeFileSync(path.join(jp, 'active'), `${older}\n`);
      const future = new Date(Date.now() + 60_000);
      utimesSync(path.join(jp, 'active'), future, future);
      mkdirSync(path.join(jp, 'cache'));
      writeFileSync(path.join(jp, 'cache', 'file-contents.json'), '{}');
      return older;
    }
    if (variant !== 'cache only') renameSync(path.join(jp, 'local', 'active'), path.join(jp, 'active'));
    if (variant !== 'active only') renameSync(path.join(jp, 'local', 'cache'), path.join(jp, 'cache'));
    rmSync(path.join(jp, 'local', 'activity.json'), { force: true });
    return active;
  }

  /** Where each piece is now: exactly one place, never neither, and what the active pointer holds. */
  function pieces(ws: string): { active: string } {
    const jp = path.join(ws, '.jp');
    const activeAt = [path.join(jp, 'local', 'active'), path.join(jp, 'active')].filter((file) => existsSync(file));
    expect(activeAt.length, 'the active pointer is somewhere').toBeGreaterThan(0);
    const cacheNew = existsSync(path.join(jp, 'local', 'cache', 'file-contents.json'));
    const cacheOld = existsSync(path.join(jp, 'cache', 'file-contents.json'));
    expect(cacheNew || cacheOld, 'the file cache is somewhere').toBe(true);
    return { active: readFileSync(activeAt[0]!, 'utf8').trim() };
  }

  it(`survives kill -9 at ${ITERATIONS} points of the move, and finishes it on the next run`, { timeout: 600_000 }, async () => {
    const random = seededRandom(35);
    const seen = { named: 0, timed: 0 };
    for (let i = 0; i < ITERATIONS; i++) {
      const variant = VARIANTS[i % VARIANTS.length]!;
      const ws = path.join(template.root, `case-${i}`);
      const expected = oldLayout(ws, variant);
      const env = { ...template.env };
      const named = i % 2 === 0;
      if (named) env.JP_TEST_CRASH_AT = POINTS[Math.floor(random() * POINTS.length)]!;
      const run = startJp(['-F', 'json', 'conversation', 'ls'], { cwd: ws, env });
      if (!named) setTimeout(() => run.child.kill('SIGKILL'), Math.floor(random() * 250));
      const killed = await run.result;
      if (killed.code !== 0) seen[named ? 'named' : 'timed'] += 1;
      const leftOld = existsSync(path.join(ws, '.jp', 'active')) || existsSync(path.join(ws, '.jp', 'cache'));

      // Whatever the moment: each piece is in one place, and the active choice is the same.
      const state = pieces(ws);
      if (variant !== 'an older jp wrote both again after the move') expect(state.active).toBe(expected);

      // The next run loads, lists every conversation with the same active one, and leaves only the new layout.
      const next = await runJp(['-F', 'json', 'conversation', 'ls'], { cwd: ws, env: template.env });
      expect(next.code, next.stderr).toBe(0);
      const listed = JSON.parse(next.stdout).conversations as Array<{ id: string; active: boolean }>;
      expect(listed.map((c) => c.id).sort()).toEqual(ids);
      expect(listed.find((c) => c.active)?.id, `case ${i} (${variant})`).toBe(expected);
      expect(existsSync(path.join(ws, '.jp', 'active'))).toBe(false);
      expect(existsSync(path.join(ws, '.jp', 'cache'))).toBe(false);
      expect(existsSync(path.join(ws, '.jp', 'local', 'active'))).toBe(true);
      expect(existsSync(path.join(ws, '.jp', '.gitignore'))).toBe(true);
      // Said by the run that moved something, once: a run that finds nothing to move says nothing.
      if (leftOld) expect(next.stderr, `case ${i}`).toMatch(WARNING);
      else expect(next.stderr, `case ${i}`).not.toMatch(WARNING);
      expect((killed.stderr + next.stderr).match(new RegExp(WARNING.source, 'g'))?.length ?? 0, `case ${i}: ${killed.stderr}${next.stderr}`).toBeLessThanOrEqual(1);
      if (i % 10 === 0) {
        const again = await runJp(['-F', 'json', 'conversation', 'ls'], { cwd: ws, env: template.env });
        expect(again.stderr).not.toMatch(WARNING);
        // And the conversations go on: a turn on the active one reads the tree through the moved cache.
        const turn = await runJp(['query', '-m', 'echo', '--attach', 'src/', 'again'], { cwd: ws, env: template.env });
        expect(turn.code, turn.stderr).toBe(0);
      }
      rmSync(ws, { recursive: true, force: true });
    }
    // Most named points are reached (a variant without a cache never reaches "migration:cache");
    // timed kills land before, inside or after the move, as the machine's speed has it.
    expect(seen.named).toBeGreaterThanOrEqual(40);
  });

  it('says so once, in text, naming what it moved and the git step', async () => {
    const ws = path.join(template.root, 'text');
    oldLayout(ws, 'both');
    const first = await runJp(['conversation', 'ls'], { cwd: ws, env: template.env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe(
      "jp: warning: moved this machine's state (.jp/active, .jp/cache/) into .jp/local/, which git ignores; if git tracks .jp/active, commit its removal\n",
    );
    expect(readFileSync(path.join(ws, '.jp', 'local', 'cache', 'file-contents.json'), 'utf8')).toBe(cache);
    const second = await runJp(['conversation', 'ls'], { cwd: ws, env: template.env });
    expect(second.stderr).toBe('');
  });
});
