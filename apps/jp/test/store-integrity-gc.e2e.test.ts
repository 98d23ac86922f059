import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expectEveryConversationLoads,
  expectOneLineJsonError,
  fileUri,
  lastJson,
  listedIds,
  makeWorkspace,
  requestTexts,
  showEvents,
  startJp,
  temporaryFiles,
  treeFiles,
  waitForFile,
  waitForOldChangeTimes,
  writeFiles,
  type Workspace,
} from './helpers/store-harness.ts';
import type { JpResult } from './helpers/run-jp.ts';

// A tool that signals it runs (`ready`) and waits for `go`: a query paused after resolving its attachments.
const PAUSE_TOOL = `
[tools.p]
command = "sh"
args = ["-c", "touch ready; while [ ! -e go ]; do sleep 0.05; done"]
description = "p"
run = "unattended"
`;

const TREE = treeFiles('d', 210, (i) => `file ${i} of the tree\n`);
/** The files of `d/` among a request's resources (not the pausing `cmd:`). */
const treeTexts = (texts: Record<string, string>) => Object.fromEntries(Object.entries(texts).filter(([name]) => name.startsWith('d/')));
const KEEP = 'kept by a conversation nobody removes\n';

/** A workspace with `d/` (210 files), `keep.txt` attached by a conversation that stays, and tool `p`. */
async function pausableWorkspace(name: string): Promise<Workspace> {
  const w = await makeWorkspace(`jp-store-gc-${name}-`);
  writeFiles(w.ws, { ...TREE, 'keep.txt': KEEP });
  writeFileSync(path.join(w.ws, '.jp', 'config.toml'), PAUSE_TOOL, { flag: 'a' });
  return w;
}

/**
 * Attaches `d/` once so the blob store and the file cache know every file, then removes that
 * conversation: its pack is garbage that a later attach of `d/` takes its content from (by digest).
 */
async function cacheTreeThenOrphanIt(w: Workspace): Promise<void> {
  const keeper = await w.jp(['query', '--new', '-m', 'echo', '--attach', 'keep.txt', 'keep']);
  expect(keeper.code, keeper.stderr).toBe(0);
  const first = await w.jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'd/', 'x']);
  expect(first.code, first.stderr).toBe(0);
  const cache = JSON.parse(readFileSync(path.join(w.ws, '.jp', 'local', 'cache', 'file-contents.json'), 'utf8'));
  const cached = new Set((cache.files as unknown[][]).map((row) => row[0]));
  // The precondition of the race: the next attach of d/ takes every file from the cache.
  for (const name of Object.keys(TREE)) expect(cached, name).toContain(fileUri(w.ws, name));
  const removed = await w.jp(['conversation', 'rm', lastJson(first.stdout).conversation, '--yes']);
  expect(removed.code, removed.stderr).toBe(0);
}

/**
 * An attachment that signals it runs (`ready`) and waits for `go`, resolved alongside `d/`: a query
 * paused after taking `d/` from the cache and before storing its blobs. The half second lets the
 * cached `d/` (milliseconds) finish first; were it slower, gc would find fewer blobs to remove, and
 * the `removed` check of each test says so.
 */
const PAUSE_ATTACHMENT = 'cmd:sh -c "sleep 0.5; touch ready; while [ ! -e go ]; do sleep 0.05; done; echo went"';

/**
 * Starts `q -n -a d/` paused where `at` says — in its attachments (before the turn's blobs are
 * stored, RFD 029) or in tool `p` (after, while the model would be answering) — waits until it is
 * there, runs `jp gc`, calls `between`, lets it go on.
 */
async function queryAcrossGc(w: Workspace, at: 'attachments' | 'tool', between: () => void): Promise<{ query: JpResult; removed: number }> {
  rmSync(path.join(w.ws, 'ready'), { force: true });
  rmSync(path.join(w.ws, 'go'), { force: true });
  const pause = at === 'tool' ? ['!tool p'] : ['--attach', PAUSE_ATTACHMENT, 'x'];
  const running = startJp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'd/', ...pause], { cwd: w.ws, env: w.env });
  try {
    // By now d/ is resolved (from the cache), and, paused in the tool, its blobs are stored.
    await waitForFile(path.join(w.ws, 'ready'), running);
    const gc = await w.jp(['-F', 'json', 'gc']);
    expect(gc.code, gc.stderr).toBe(0);
    between();
    writeFileSync(path.join(w.ws, 'go'), '');
    return { removed: JSON.parse(gc.stdout).removed, query: await running.result };
  } finally {
    writeFileSync(path.join(w.ws, 'go'), '');
    await running.result;
  }
}

describe('jp gc against a query that took its files from the content cache', () => {
  let unchanged: Workspace;
  let edited: Workspace;

  beforeAll(async () => {
    unchanged = await pausableWorkspace('unchanged');
    edited = await pausableWorkspace('edited');
    await waitForOldChangeTimes();
    await cacheTreeThenOrphanIt(unchanged);
    await cacheTreeThenOrphanIt(edited);
  }, 120_000);

  it('collects the orphaned pack while the query is paused before storing; the query stores every file whole', { timeout: 120_000 }, async () => {
    const w = unchanged;
    const { query, removed } = await queryAcrossGc(w, 'attachments', () => undefined);
    // gc did remove the blobs the paused query had taken by digest: the race really happened.
    expect(removed).toBeGreaterThanOrEqual(Object.keys(TREE).length);
    expect(query.code, query.stderr).toBe(0);
    const id = lastJson(query.stdout).conversation as string;
    const { result, events } = await showEvents(w, id);
    expect(result.code, result.stderr).toBe(0);
    expect(treeTexts(requestTexts(events))).toEqual(TREE);
    await expectEveryConversationLoads(w);
    expect(temporaryFiles(w.ws)).toEqual([]);
    // And a later gc keeps all of it.
    expect((await w.jp(['gc'])).code).toBe(0);
    expect(treeTexts(requestTexts((await showEvents(w, id)).events))).toEqual(TREE);
  });

  it('a file edited (same size) after gc removed its blob: the query refuses to store, in one line', { timeout: 120_000 }, async () => {
    const w = edited;
    const before = await listedIds(w);
    const target = 'd/f007.txt';
    const replacement = TREE[target]!.replace('file', 'FILE');
    expect(replacement).toHaveLength(TREE[target]!.length);
    const { query, removed } = await queryAcrossGc(w, 'attachments', () => writeFileSync(path.join(w.ws, target), replacement));
    expect(removed).toBeGreaterThanOrEqual(Object.keys(TREE).length);
    // Which outcome, and why: the turn took f007's old content from the cache by digest; gc removed
    // the only stored copy; when the turn's blobs are stored (before the model is called), jp reads
    // the file again to restore that blob, and the file no longer hashes to the digest the turn
    // refers to. Storing the new bytes under the old digest, or a reference to nothing, would
    // corrupt the conversation, so the query fails before anything is written or sent, and says to
    // run it again.
    expectOneLineJsonError(query, 1, 'missing_blob', /f007\.txt .*was removed by `jp gc` while this command ran, and its file has changed since; run the command again/);
    expect(await listedIds(w)).toEqual(before);
    await expectEveryConversationLoads(w);
    expect(temporaryFiles(w.ws)).toEqual([]);

    // Run again, it attaches the file as it is now.
    const again = await w.jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'd/', 'again']);
    expect(again.code, again.stderr).toBe(0);
    const { events } = await showEvents(w, lastJson(again.stdout).conversation);
    expect(treeTexts(requestTexts(events))).toEqual({ ...TREE, [target]: replacement });
  });
});

describe('jp gc while the model answers a turn whose blobs are stored', () => {
  it('keeps them all: the turn lists them as pending until its line refers to them (RFD 029)', { timeout: 120_000 }, async () => {
    const w = await pausableWorkspace('pending');
    await waitForOldChangeTimes();
    await cacheTreeThenOrphanIt(w);
    const { query, removed } = await queryAcrossGc(w, 'tool', () => undefined);
    // The removed conversation's pack holds exactly the blobs the paused turn refers to: none goes.
    expect(removed).toBe(0);
    expect(query.code, query.stderr).toBe(0);
    const id = lastJson(query.stdout).conversation as string;
    expect(requestTexts((await showEvents(w, id)).events)).toEqual(TREE);
    await expectEveryConversationLoads(w);
  });
});

describe('16 processes at once while jp gc runs back to back', () => {
  const SINGLES = treeFiles('one', 16, (i) => `single file ${i}\n`);
  let w: Workspace;
  /** Conversations followed up every round; they never attach d/, so d/'s blobs become garbage once a round's are removed. */
  let bases: string[] = [];

  beforeAll(async () => {
    w = await makeWorkspace('jp-store-gc-race-');
    writeFiles(w.ws, { ...TREE, ...SINGLES });
    await waitForOldChangeTimes();
    for (let i = 0; i < 3; i++) {
      const base = await w.jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', `one/f00${i}.txt`, `base ${i}`]);
      expect(base.code, base.stderr).toBe(0);
      bases.push(lastJson(base.stdout).conversation);
    }
  }, 120_000);

  it('6 rounds: every query exits 0 or 5, every conversation loads after each round, no blob goes missing', { timeout: 600_000 }, async () => {
    let previous: Array<{ id: string; tree: boolean }> = [];
    let collected = 0;
    for (let round = 1; round <= 6; round++) {
      // Garbage for gc to race with: every conversation of the last round that attached d/, and half of the others.
      for (const [i, { id, tree }] of previous.entries()) {
        if (!tree && i % 2 === 1) continue;
        const rm = await w.jp(['conversation', 'rm', id, '--yes']);
        expect(rm.code, rm.stderr).toBe(0);
      }
      const changing = `round ${round}: ${'x'.repeat(round * 7)}\n`;
      writeFileSync(path.join(w.ws, 'changing.txt'), changing);

      const jobs: Array<{ args: string[]; expect?: Record<string, string> }> = [];
      for (let i = 0; i < 4; i++) jobs.push({ args: ['--new', '-m', 'echo', '--attach', 'd/', `r${round} tree ${i}`], expect: TREE });
      for (let i = 0; i < 4; i++) {
        const name = `one/f${String((round * 4 + i) % 16).padStart(3, '0')}.txt`;
        jobs.push({ args: ['--new', '-m', 'echo', '--attach', name, `r${round} one ${i}`], expect: { [name]: SINGLES[name]! } });
      }
      // Two follow-ups per base conversation would contend for its lock: exit 0 or 5 are both fine.
      for (let i = 0; i < 4; i++) jobs.push({ args: ['--id', bases[i % bases.length]!, `r${round} follow ${i}`] });
      for (let i = 0; i < 2; i++) jobs.push({ args: ['--id', bases[(round + i) % bases.length]!, '--attach', 'changing.txt', `r${round} changed ${i}`], expect: { 'changing.txt': changing } });
      for (let i = 0; i < 2; i++) jobs.push({ args: ['--new', '-m', 'echo', '--attach', 'changing.txt', `r${round} changed new ${i}`], expect: { 'changing.txt': changing } });
      expect(jobs).toHaveLength(16);

      const running = jobs.map((job) => startJp(['-F', 'json', 'query', ...job.args], { cwd: w.ws, env: w.env }));
      const gcCodes: Array<number | null> = [];
      const gcLoop = (async () => {
        while (!running.every((r) => r.exited())) {
          const gc = await w.jp(['-F', 'json', 'gc']);
          gcCodes.push(gc.code);
          expect([0, 5], gc.stderr).toContain(gc.code);
          if (gc.code === 0) collected += JSON.parse(gc.stdout).removed;
        }
      })();
      const results = await Promise.all(running.map((r) => r.result));
      await gcLoop;
      expect(gcCodes.length).toBeGreaterThan(0);

      previous = [];
      for (const [i, result] of results.entries()) {
        expect(result.stderr, jobs[i]!.args.join(' ')).not.toMatch(/missing_blob|which is missing|is damaged/);
        expect([0, 5], `${jobs[i]!.args.join(' ')}: ${result.stderr}`).toContain(result.code);
        if (result.code !== 0) continue;
        const id = lastJson(result.stdout).conversation as string;
        if (jobs[i]!.args[0] === '--new') previous.push({ id, tree: jobs[i]!.args.includes('d/') });
        const { result: shown, events } = await showEvents(w, id);
        expect(shown.code, shown.stderr).toBe(0);
        const turn = events.filter((event) => event.type === 'chat_request').findIndex((event) => event.content === jobs[i]!.args.at(-1));
        expect(turn, `the turn of ${jobs[i]!.args.join(' ')}`).toBeGreaterThanOrEqual(0);
        if (jobs[i]!.expect !== undefined) expect(requestTexts(events, turn)).toEqual(jobs[i]!.expect);
      }
      // The round did race gc with content taken from the cache: some attach of d/ went through.
      expect(previous.filter((p) => p.tree).length, `round ${round}`).toBeGreaterThan(0);
      await expectEveryConversationLoads(w);
    }
    // gc did find garbage while queries ran (the removed rounds' blobs).
    expect(collected).toBeGreaterThan(0);
    expect((await w.jp(['gc'])).code).toBe(0);
    await expectEveryConversationLoads(w);
  });
});
