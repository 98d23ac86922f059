import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJp, type JpResult } from './helpers/run-jp.ts';
import { expectKilledAt, lastJson, makeWorkspace, seededRandom, startJp, waitForOldChangeTimes, writeFiles, type Workspace } from './helpers/store-harness.ts';

// A workspace made before RFD 029 keeps this machine's state beside the shared files: `.jp/active`
// and `.jp/cache/`. The first jp run moves both under `.jp/local/` and says so once. Killed at
// any point (a named point in the move, or a random moment of the run), every piece is in its old
// place or its new one, and the next run loads, finishes the move and keeps the active choice.

const POINTS = ['migration:local', 'migration:active', 'migration:cache'] as const;
const WARNING = /moved this machine's state \(.*\) into \.jp\/local\/, which git ignores/;

type Variant = 'both' | 'active only' | 'cache only' | 'an older jp wrote both again after the move';
const VARIANTS: Variant[] = ['both', 'active only', 'cache only', 'an older jp wrote both again after the move'];
/**
 * How each case's run is stopped: at a named point of the move, by a kill after a random delay, or
 * by a kill the moment the move is seen to have begun (its first write, `.jp/.gitignore`).
 */
type Kill = (typeof POINTS)[number] | 'timed' | 'on move';
const KILLS: Kill[] = [...POINTS, 'timed', 'on move'];
/** Every variant meets every kind of kill this many times. */
const REPEATS = 6;
const ITERATIONS = VARIANTS.length * KILLS.length * REPEATS;

/** The named points a variant's move passes: one without a cache (or an active pointer) has no step for it. */
function reaches(variant: Variant, point: (typeof POINTS)[number]): boolean {
  if (point === 'migration:cache') return variant !== 'active only';
  if (point === 'migration:active') return variant !== 'cache only';
  return true;
}

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

  it(`survives kill -9 in ${ITERATIONS} runs, each variant at each named point and at random moments, and finishes on the next run`, { timeout: 900_000 }, async () => {
    const random = seededRandom(35);
    // A timed kill's delay is spread over how long a run takes here just now (the last run that
    // was not killed), so it lands before, inside or after the move whatever the machine's load.
    let typical = 0;
    const timedRun = async (args: string[], ws: string): Promise<JpResult> => {
      const started = Date.now();
      const result = await runJp(args, { cwd: ws, env: template.env });
      if (result.code === 0) typical = Date.now() - started;
      return result;
    };
    const warmUp = path.join(template.root, 'warm-up');
    oldLayout(warmUp, 'both');
    for (let n = 0; n < 2; n++) expect((await timedRun(['-F', 'json', 'conversation', 'ls'], warmUp)).code).toBe(0);
    rmSync(warmUp, { recursive: true, force: true });
    /** How the timed and on-move kills ended: killed before the move began, midway, after it, or the run finished first. */
    const outcomes = { timed: { before: 0, midway: 0, after: 0, finished: 0 }, 'on move': { before: 0, midway: 0, after: 0, finished: 0 } };
    for (let i = 0; i < ITERATIONS; i++) {
      const variant = VARIANTS[i % VARIANTS.length]!;
      const kill = KILLS[Math.floor(i / VARIANTS.length) % KILLS.length]!;
      const ws = path.join(template.root, `case-${i}`);
      const expected = oldLayout(ws, variant);
      const env = { ...template.env };
      if (kill !== 'timed') env.JP_TEST_CRASH_AT = kill;
      const run = startJp(['-F', 'json', 'conversation', 'ls'], { cwd: ws, env });
      if (kill === 'timed') setTimeout(() => run.child.kill('SIGKILL'), Math.floor(random() * typical));
      const watch =
        kill === 'on move'
          ? setInterval(() => {
              if (!existsSync(path.join(ws, '.jp', '.gitignore'))) return;
              run.child.kill('SIGKILL');
              clearInterval(watch);
            }, 1)
          : undefined;
      const killed = await run.result;
      clearInterval(watch);
      const oldAt = ['active', 'cache'].filter((name) => existsSync(path.join(ws, '.jp', name)));
      const leftOld = oldAt.length > 0;

      if (kill !== 'timed' && kill !== 'on move') {
        // A point on this variant's path is reached and kills there; one that is not lets the run finish.
        if (reaches(variant, kill)) expectKilledAt(killed, kill);
        else expect(killed.code, `case ${i} (${variant}, ${kill}): ${killed.stderr}`).toBe(0);
      } else if (killed.code === 0) {
        // Finished before its kill: moved everything and said so, once.
        outcomes[kill].finished += 1;
        expect(leftOld, `case ${i} (${variant})`).toBe(false);
        expect(killed.stderr).toMatch(WARNING);
      } else {
        expect(run.child.signalCode, `case ${i} (${variant}): ${killed.stderr}`).toBe('SIGKILL');
        // Where the kill landed, read from the disk: the move writes .gitignore first, then renames.
        const started = existsSync(path.join(ws, '.jp', '.gitignore'));
        if (!started) {
          outcomes[kill].before += 1;
          expect(oldAt.length, `case ${i} (${variant}): killed before the move, so nothing moved`).toBe(variant === 'active only' || variant === 'cache only' ? 1 : 2);
        } else if (leftOld) outcomes[kill].midway += 1;
        else outcomes[kill].after += 1;
      }

      // Whatever the moment: each piece is in one place, and the active choice is the same.
      const state = pieces(ws);
      if (variant !== 'an older jp wrote both again after the move') expect(state.active).toBe(expected);

      // The next run loads, lists every conversation with the same active one, and leaves only the new layout.
      const next = await timedRun(['-F', 'json', 'conversation', 'ls'], ws);
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
    // The timed kills landed: most of them killed the run (their delays lie within its length). The
    // move comes at the end of start-up, so most land before it; the on-move kills land in it or
    // just after it, never before (the move had begun when they were sent).
    const perKind = ITERATIONS / KILLS.length;
    console.log(`kills by outcome (${perKind} of each kind): ${JSON.stringify(outcomes)}`);
    const { timed, 'on move': onMove } = outcomes;
    expect(timed.before + timed.midway + timed.after + timed.finished).toBe(perKind);
    expect(timed.before + timed.midway + timed.after).toBeGreaterThanOrEqual(perKind / 2);
    expect(onMove.before).toBe(0);
    expect(onMove.midway + onMove.after + onMove.finished).toBe(perKind);
    expect(onMove.midway + onMove.after).toBeGreaterThanOrEqual(perKind / 2);
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
