import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JpResult } from './helpers/run-jp.ts';
import { SmallTmpfs } from './helpers/small-tmpfs.ts';
import {
  copyWorkspace,
  emptyLocks,
  expectEveryConversationLoads,
  lastJson,
  listedIds,
  makeWorkspace,
  showEvents,
  temporaryFiles,
  treeFiles,
  writeFiles,
  type Event,
  type Workspace,
} from './helpers/store-harness.ts';

/** What a scenario adds to the existing conversation when it succeeds. */
type Adds = 'turn' | 'config_delta' | 'nothing (a fork)';

interface Scenario {
  name: string;
  /** Files the command reads, made unique to the case so every run has to write its content anew. */
  files(label: string): Record<string, string>;
  args(id: string): string[];
  adds: Adds;
}

/** ~1.5 MB of text no other case has. */
function bigText(label: string): string {
  const lines: string[] = [];
  let digest = label;
  for (let size = 0; size < 1_500_000; size += 65) {
    digest = createHash('sha256').update(digest).digest('hex');
    lines.push(digest);
  }
  return `${lines.join('\n')}\n`;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'a query attaching one 1.5 MB file (a loose blob)',
    files: (label) => ({ 'big.txt': bigText(label) }),
    args: (id) => ['-c', 'conversation.attachment.size_policy=allow', 'query', '--id', id, '--attach', 'big.txt', 'big'],
    adds: 'turn',
  },
  {
    name: 'a query attaching a directory of 300 files (a pack)',
    files: (label) => treeFiles('tree', 300, (i) => `${label}: file ${i}\n`),
    args: (id) => ['query', '--id', id, '--attach', 'tree/', 'tree'],
    adds: 'turn',
  },
  { name: 'a plain follow-up query (events line and metadata)', files: () => ({}), args: (id) => ['query', '--id', id, 'plain'], adds: 'turn' },
  {
    name: 'jp attachment add (events line under the lock)',
    files: () => ({ 'notes.md': 'notes\n' }),
    args: (id) => ['attachment', 'add', 'notes.md', '--id', id],
    adds: 'config_delta',
  },
  { name: 'jp conversation fork (a new conversation directory)', files: () => ({}), args: (id) => ['-F', 'json', 'conversation', 'fork', id], adds: 'nothing (a fork)' },
];

const FREE = [0, 4096, 64 * 1024, 1024 * 1024];

/** The events a successful run adds to the existing conversation must be exactly one whole turn, or one delta. */
function expectAdded(added: Event[], adds: Adds): void {
  if (adds === 'nothing (a fork)') return expect(added).toEqual([]);
  if (adds === 'config_delta') return expect(added.map((event) => event.type)).toEqual(['config_delta']);
  expect(added[0]).toMatchObject({ type: 'turn_start' });
  expect(added.at(-1)).toMatchObject({ type: 'chat_response' });
  expect(added.filter((event) => event.type === 'turn_start')).toHaveLength(1);
  expect(added.filter((event) => event.type === 'chat_request')).toHaveLength(1);
}

/** The message of an error line, `jp: …` or (with `-F json`) a JSON error with the disk_full code. */
function diskFullMessage(line: string): string {
  if (!line.startsWith('{')) return line.replace(/^jp: /, '');
  const { error } = JSON.parse(line) as { error: { code: string; exitCode: number; message: string } };
  expect(error).toMatchObject({ code: 'disk_full', exitCode: 1 });
  return error.message;
}

/** Events cut at each turn_start. */
function splitTurns(events: Event[]): Event[][] {
  const turns: Event[][] = [];
  for (const event of events) {
    if (event.type === 'turn_start' || turns.length === 0) turns.push([]);
    turns.at(-1)!.push(event);
  }
  return turns;
}

// Runs out of disk space through the binary, on a small tmpfs of this test's own, with each kind
// of write failing: every run succeeds whole or fails in one actionable line, leaving the existing
// conversation exactly as it was, and the same command succeeds once there is room again.
describe('a full disk', () => {
  let tmpfs: SmallTmpfs;
  let template: Workspace;
  let id = '';
  let cases = 0;

  beforeAll(async () => {
    tmpfs = new SmallTmpfs('8m');
    // Made on the ordinary disk, copied onto the tmpfs for each case: one conversation of a few turns.
    template = await makeWorkspace('jp-store-full-');
    const first = await template.jp(['-F', 'json', 'query', '--new', '-m', 'echo', 'one']);
    expect(first.code, first.stderr).toBe(0);
    id = lastJson(first.stdout).conversation;
    for (const text of ['two', 'three']) expect((await template.jp(['query', '--id', id, text])).code).toBe(0);
  }, 60_000);

  afterAll(() => {
    tmpfs?.free();
    tmpfs?.unmount();
  });

  /** The checks that hold whatever the outcome: the conversation has `expected` events, no temporary file, no empty lock. */
  async function expectIntact(w: Workspace, expected: Event[]): Promise<Event[]> {
    const { result, events } = await showEvents(w, id);
    expect(result.code, result.stderr).toBe(0);
    expect(events.slice(0, expected.length)).toEqual(expected);
    expect(temporaryFiles(w.ws)).toEqual([]);
    expect(emptyLocks(w.ws)).toEqual([]);
    return events;
  }

  describe.each(SCENARIOS)('$name', (scenario) => {
    it.each(FREE)('with %i bytes free: succeeds whole or fails in one line; succeeds once there is room', { timeout: 120_000 }, async (free) => {
      const w = copyWorkspace(template, path.join(tmpfs.dir, `case-${++cases}`));
      try {
        writeFiles(w.ws, scenario.files(`case ${cases}`));
        const { events: before } = await showEvents(w, id);
        const idsBefore = await listedIds(w);
        const args = scenario.args(id);

        expect(tmpfs.leaveFree(free)).toBe(free);
        let run: JpResult;
        try {
          run = await w.jp(args);
        } finally {
          tmpfs.free();
        }

        if (free === 0) expect(run.code, `with no room at all, ${args.join(' ')} must fail: ${run.stdout}`).not.toBe(0);
        if (run.code === 0) {
          await expectEveryConversationLoads(w);
          expectAdded((await expectIntact(w, before)).slice(before.length), scenario.adds);
        } else {
          expect(run.code, run.stderr).toBe(1);
          const lines = run.stderr.trimEnd().split('\n');
          expect(lines, run.stderr).toHaveLength(1);
          expect(diskFullMessage(lines[0]!)).toMatch(/^could not write .+: the disk is full; free some space and run the command again$/);
          // Exactly the events it had: a failed command adds nothing, not even a whole turn.
          expect(await expectIntact(w, before), `after: ${run.stderr}`).toEqual(before);
          expect(await listedIds(w)).toEqual(idsBefore);
        }

        // With room again, the same command goes through.
        const again = await w.jp(args);
        expect(again.code, again.stderr).toBe(0);
        await expectEveryConversationLoads(w);
        const after = await expectIntact(w, before);
        if (scenario.adds === 'nothing (a fork)') {
          expect(after).toEqual(before);
          expect((await showEvents(w, lastJson(again.stdout).id)).events).toEqual(before);
        } else if (scenario.adds === 'config_delta') {
          // Declared once: by the first run when it succeeded (the retry then finds it declared), else by the retry.
          expectAdded(after.slice(before.length), 'config_delta');
        } else {
          const turns = splitTurns(after.slice(before.length));
          expect(turns).toHaveLength(run.code === 0 ? 2 : 1);
          for (const turn of turns) expectAdded(turn, 'turn');
        }
      } finally {
        rmSync(w.ws, { recursive: true, force: true });
      }
    });
  });
});
