import { rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, runJp, snapshotTree } from './helpers/run-jp.ts';
import { copyWorkspace, expectEveryConversationLoads, lastJson, makeWorkspace, treeFiles, writeFiles, type Workspace } from './helpers/store-harness.ts';

// Each full-disk scenario fails at exactly the write it names (JP_TEST_ENOSPC_AT, store/test-hooks.ts),
// which free space on a tmpfs cannot aim at (issue 36): the one-line error names that file, .jp/ is
// left byte for byte as it was (no new empty blob directory either, issue 35), and with room again
// the same command goes through.
interface Scenario {
  name: string;
  point: string;
  files: Record<string, string>;
  args(id: string): string[];
  /** The file the error must name, relative to the workspace. */
  path(id: string): RegExp;
  /** What the workspace needs before the command (after `files` are written). */
  setup?(w: Workspace): Promise<void>;
}

const NEW_ID = '[0-9a-z]{9}-[0-9a-z]{5}';

/** Runs a jp command that must succeed. */
async function succeeds(w: Workspace, args: string[]): Promise<string> {
  const result = await w.jp(args);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'a query attaching one file: the loose blob',
    point: 'blob-write',
    files: { 'one.txt': 'one file of its own\n' },
    args: (id) => ['query', '--id', id, '--attach', 'one.txt', 'one'],
    path: () => /\.jp\/blobs\/[0-9a-f]{2}\/[0-9a-f]{64}/,
  },
  {
    name: 'a query attaching a directory of 40 files: the pack',
    point: 'pack-write',
    files: treeFiles('tree', 40, (i) => `tree file ${i} of its own\n`),
    args: (id) => ['query', '--id', id, '--attach', 'tree/', 'tree'],
    path: () => /\.jp\/blobs\/packs\/[0-9a-f]{64}\.pack/,
  },
  {
    name: 'a plain follow-up query: the events line',
    point: 'events-append',
    files: {},
    args: (id) => ['query', '--id', id, 'plain'],
    path: (id) => new RegExp(`\\.jp/conversations/${id}/events\\.jsonl`),
  },
  {
    name: 'jp attachment add: the events line under the lock',
    point: 'events-append',
    files: { 'notes.md': 'notes\n' },
    args: (id) => ['attachment', 'add', 'notes.md', '--id', id],
    path: (id) => new RegExp(`\\.jp/conversations/${id}/events\\.jsonl`),
  },
  {
    name: 'a new conversation: its files, under their temporary directory',
    point: 'create:files',
    files: {},
    args: () => ['query', '--new', '-m', 'echo', 'new'],
    path: () => new RegExp(`\\.jp/conversations/\\.new-${NEW_ID}-\\d+/events\\.jsonl`),
  },
  {
    name: 'a new conversation: the rename into place',
    point: 'create:rename',
    files: {},
    args: () => ['query', '--new', '-m', 'echo', 'new'],
    path: () => new RegExp(`\\.jp/conversations/${NEW_ID}`),
  },
  {
    name: 'a fork: its files, under their temporary directory',
    point: 'fork:files',
    files: {},
    args: (id) => ['conversation', 'fork', id],
    path: () => new RegExp(`\\.jp/conversations/\\.new-${NEW_ID}-\\d+/events\\.jsonl`),
  },
  {
    name: 'a fork: the rename into place',
    point: 'fork:rename',
    files: {},
    args: (id) => ['conversation', 'fork', id],
    path: () => new RegExp(`\\.jp/conversations/${NEW_ID}`),
  },
  {
    name: 'jp conversation rm: the rename to .rm-',
    point: 'remove:rename',
    files: {},
    args: (id) => ['conversation', 'rm', id, '--yes'],
    path: (id) => new RegExp(`\\.jp/conversations/${id}`),
  },
  {
    name: 'jp gc: the pack it rewrites with the blobs still in use',
    point: 'gc:pack-rewrite',
    files: { ...treeFiles('m/keep', 20, (i) => `kept half ${i}\n`), ...treeFiles('m/drop', 20, (i) => `dropped half ${i}\n`) },
    args: () => ['gc'],
    path: () => /\.jp\/blobs\/packs\/[0-9a-f]{64}\.pack/,
    // One pack holds both halves; the conversation that used the dropped half is removed.
    async setup(w) {
      const both = lastJson(await succeeds(w, ['-F', 'json', 'query', '--new', '-m', 'echo', '-a', 'm/', 'both'])).conversation;
      await succeeds(w, ['query', '--new', '-m', 'echo', '-a', 'm/keep/', 'kept']);
      await succeeds(w, ['conversation', 'rm', both, '--yes']);
    },
  },
];

describe('a full disk at each named write', () => {
  let template: Workspace;
  let id = '';
  let cases = 0;

  beforeAll(async () => {
    template = await makeWorkspace('jp-disk-full-points-');
    const first = await template.jp(['-F', 'json', 'query', '--new', '-m', 'echo', 'one']);
    expect(first.code, first.stderr).toBe(0);
    id = lastJson(first.stdout).conversation;
  }, 60_000);

  it.each(SCENARIOS)('$name fails there, in one line naming the file, and leaves .jp/ as it was', { timeout: 120_000 }, async (scenario) => {
    const w = copyWorkspace(template, path.join(template.root, `case-${++cases}`));
    try {
      writeFiles(w.ws, scenario.files);
      await scenario.setup?.(w);
      const jpDir = path.join(w.ws, '.jp');
      const before = snapshotTree(jpDir);
      const failed = await runJp(scenario.args(id), { cwd: w.ws, env: { ...w.env, JP_TEST_ENOSPC_AT: scenario.point }, timeoutMs: 60_000 });
      expectOneLineError(failed, 1, /^jp: could not write (\S+): the disk is full; free some space and run the command again$/);
      const named = /^jp: could not write (\S+):/.exec(failed.stderr)![1]!;
      expect(named).toMatch(new RegExp(`^${scenario.path(id).source}$`));
      expect(snapshotTree(jpDir)).toEqual(before);

      const again = await w.jp(scenario.args(id));
      expect(again.code, again.stderr).toBe(0);
      await expectEveryConversationLoads(w);
    } finally {
      rmSync(w.ws, { recursive: true, force: true });
    }
  });
});
