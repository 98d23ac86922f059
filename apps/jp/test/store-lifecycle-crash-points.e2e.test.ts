import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runJp } from './helpers/run-jp.ts';
import {
  conversationLeftovers,
  expectEveryConversationLoads,
  expectKilledAt,
  findFiles,
  lastJson,
  listedIds,
  makeWorkspace,
  treeFiles,
  unreadableConversations,
  writeFiles,
  type Workspace,
} from './helpers/store-harness.ts';

// kill -9 at each named point of a conversation's life outside its appends (issue 45): create and
// fork before and after their rename, remove after its rename to `.rm-`, and each kind of deletion
// `jp gc` makes. Each case shows its point was reached (the process says so, then dies by the
// signal) and what the kill left on disk, then that nothing is listed damaged, every conversation
// loads, gc clears what was left, and a conversation takes a follow-up.

describe('kill -9 at the crash points of create, fork, remove and gc', { timeout: 180_000 }, () => {
  let w: Workspace;
  let first = '';
  const jpDir = () => path.join(w.ws, '.jp');
  const conversationsDir = () => path.join(jpDir(), 'conversations');
  const activeText = () => (existsSync(path.join(jpDir(), 'local', 'active')) ? readFileSync(path.join(jpDir(), 'local', 'active'), 'utf8') : '');
  const eventsOf = (dir: string) => readFileSync(path.join(conversationsDir(), dir, 'events.jsonl'), 'utf8');
  const packs = () => findFiles(path.join(jpDir(), 'blobs', 'packs'), (name) => name.endsWith('.pack'));
  const killedAt = (point: string, args: string[]) => runJp(args, { cwd: w.ws, env: { ...w.env, JP_TEST_CRASH_AT: point }, timeoutMs: 60_000 });
  const newConversation = async (args: string[]): Promise<string> => {
    const made = await w.jp(['-F', 'json', 'query', '--new', ...args]);
    expect(made.code, made.stderr).toBe(0);
    return lastJson(made.stdout).conversation;
  };

  beforeAll(async () => {
    w = await makeWorkspace('jp-lifecycle-crash-points-');
    first = await newConversation(['-m', 'echo', 'start']);
  });

  /** After the kill: nothing damaged, every conversation loads, gc clears `leftovers` (each there before it ran), and `id` goes on. */
  async function loadsAndContinues(id: string, label: string, leftovers: string[] = []): Promise<void> {
    expect(await unreadableConversations(w)).toEqual([]);
    await expectEveryConversationLoads(w);
    for (const name of leftovers) expect(existsSync(path.join(conversationsDir(), name)), name).toBe(true);
    const gc = await w.jp(['gc']);
    expect(gc.code, gc.stderr).toBe(0);
    for (const name of leftovers) expect(existsSync(path.join(conversationsDir(), name)), `${name} after gc`).toBe(false);
    const next = await w.jp(['query', '--id', id, `after ${label}`]);
    expect(next.code, next.stderr).toBe(0);
    expect(eventsOf(id)).toContain(`after ${label}`);
  }

  for (const operation of ['create', 'fork'] as const) {
    const command = (label: string) => (operation === 'create' ? ['query', '--new', '-m', 'echo', label] : ['conversation', 'fork', first, '--title', label]);

    it(`${operation}:files: killed with the new directory written under its temporary name`, async () => {
      const listed = await listedIds(w);
      const active = activeText();
      expectKilledAt(await killedAt(`${operation}:files`, command(`at ${operation}:files`)), `${operation}:files`);
      const [leftover, ...more] = conversationLeftovers(w.ws);
      expect(more).toEqual([]);
      expect(leftover).toMatch(/^\.new-/);
      // Whole: its metadata names it, and its events are there (a fork's are its source's turn).
      expect(readFileSync(path.join(conversationsDir(), leftover!, 'metadata.json'), 'utf8')).toContain(`at ${operation}:files`);
      expect(eventsOf(leftover!)).toContain(operation === 'create' ? `at ${operation}:files` : 'start');
      expect(await listedIds(w)).toEqual(listed);
      expect(activeText()).toBe(active);
      await loadsAndContinues(first, `${operation}:files`, [leftover!]);
    });

    it(`${operation}:rename: killed once the directory is in place, before it is made active`, async () => {
      const listed = await listedIds(w);
      const active = activeText();
      expectKilledAt(await killedAt(`${operation}:rename`, command(`at ${operation}:rename`)), `${operation}:rename`);
      expect(conversationLeftovers(w.ws)).toEqual([]);
      const added = (await listedIds(w)).filter((id) => !listed.includes(id));
      expect(added).toHaveLength(1);
      expect(readFileSync(path.join(conversationsDir(), added[0]!, 'metadata.json'), 'utf8')).toContain(`at ${operation}:rename`);
      expect(activeText()).toBe(active);
      await loadsAndContinues(added[0]!, `${operation}:rename`);
    });
  }

  it('remove:rename: killed with the conversation renamed to .rm-, not yet deleted', async () => {
    const doomed = await newConversation(['-m', 'echo', 'to be removed']);
    const killed = await killedAt('remove:rename', ['conversation', 'rm', doomed, '--yes']);
    expectKilledAt(killed, 'remove:rename');
    expect(existsSync(path.join(conversationsDir(), doomed))).toBe(false);
    const [leftover, ...more] = conversationLeftovers(w.ws);
    expect(more).toEqual([]);
    expect(leftover).toMatch(new RegExp(`^\\.rm-${doomed}-\\d+$`));
    // Whole under its hidden name: nothing of it was deleted before the rename.
    expect(readdirSync(path.join(conversationsDir(), leftover!))).toEqual(expect.arrayContaining(['metadata.json', 'base-config.json', 'events.jsonl']));
    expect(eventsOf(leftover!)).toContain('to be removed');
    expect(await listedIds(w)).not.toContain(doomed);
    await loadsAndContinues(first, 'remove:rename', [leftover!]);
  });

  describe('gc', () => {
    let round = 0;
    const looseBlob = (text: string) => {
      const sha256 = createHash('sha256').update(text).digest('hex');
      return path.join(jpDir(), 'blobs', sha256.slice(0, 2), sha256);
    };

    /**
     * Garbage of each kind, new each round (a full gc ends every case): a loose blob, a pack with
     * some blobs still in use (`mixed`, rewritten) and a pack with none (`whole`, deleted), from
     * conversations that are removed; `kept` uses the rest of `mixed`.
     */
    async function makeGarbage(): Promise<{ kept: string; loose: string; mixed: string; whole: string }> {
      const r = ++round;
      const loose = `a file stored as a loose blob, round ${r}\n`;
      writeFiles(w.ws, {
        ...treeFiles(`m${r}/keep`, 20, (i) => `kept tree file ${i}, round ${r}\n`),
        ...treeFiles(`m${r}/drop`, 20, (i) => `dropped tree file ${i}, round ${r}\n`),
        ...treeFiles(`f${r}`, 20, (i) => `own tree file ${i}, round ${r}\n`),
        [`loose${r}.txt`]: loose,
      });
      const newPack = async (make: () => Promise<unknown>): Promise<string> => {
        const before = packs();
        await make();
        const added = packs().filter((name) => !before.includes(name));
        expect(added).toHaveLength(1);
        return added[0]!;
      };
      let both = '';
      let own = '';
      const mixed = await newPack(async () => (both = await newConversation(['-m', 'echo', '-a', `m${r}/`, 'both halves'])));
      const more = await w.jp(['query', '--id', both, '-a', `loose${r}.txt`, 'one loose file']);
      expect(more.code, more.stderr).toBe(0);
      const whole = await newPack(async () => (own = await newConversation(['-m', 'echo', '-a', `f${r}/`, 'its own tree'])));
      const kept = await newConversation(['-m', 'echo', '-a', `m${r}/keep/`, 'the kept half']);
      for (const id of [both, own]) {
        const rm = await w.jp(['conversation', 'rm', id, '--yes']);
        expect(rm.code, rm.stderr).toBe(0);
      }
      expect(existsSync(looseBlob(loose))).toBe(true);
      return { kept, loose: looseBlob(loose), mixed, whole };
    }

    /** After the case's full gc: the loose blob and both old packs are gone, and one new pack holds what `kept` uses. */
    const expectCollected = (garbage: { loose: string; mixed: string; whole: string }, packsBefore: string[]) => {
      expect(existsSync(garbage.loose)).toBe(false);
      const now = packs();
      expect(now).not.toContain(garbage.mixed);
      expect(now).not.toContain(garbage.whole);
      expect(now.filter((name) => !packsBefore.includes(name))).toHaveLength(1);
    };

    it('gc:delete-leftover: killed after removing what a killed create left', async () => {
      const garbage = await makeGarbage();
      expectKilledAt(await killedAt('create:files', ['query', '--new', '-m', 'echo', 'left over']), 'create:files');
      expect(conversationLeftovers(w.ws)).toHaveLength(1);
      const before = packs();
      expectKilledAt(await killedAt('gc:delete-leftover', ['gc']), 'gc:delete-leftover');
      expect(conversationLeftovers(w.ws)).toEqual([]);
      expect(existsSync(garbage.loose)).toBe(true);
      expect(packs()).toEqual(before);
      await loadsAndContinues(garbage.kept, 'gc:delete-leftover');
      expectCollected(garbage, before);
    });

    it('gc:delete-loose: killed after deleting an unreferenced loose blob, before the packs', async () => {
      const garbage = await makeGarbage();
      const before = packs();
      expectKilledAt(await killedAt('gc:delete-loose', ['gc']), 'gc:delete-loose');
      expect(existsSync(garbage.loose)).toBe(false);
      expect(packs()).toEqual(before);
      await loadsAndContinues(garbage.kept, 'gc:delete-loose');
      expectCollected(garbage, before);
    });

    it('gc:pack-rewrite: killed with the rewritten pack durable and the old one still there', async () => {
      const garbage = await makeGarbage();
      const before = packs();
      expectKilledAt(await killedAt('gc:pack-rewrite', ['gc']), 'gc:pack-rewrite');
      expect(packs()).toContain(garbage.mixed);
      // The wholly unreferenced pack may have gone first (directory order); one pack is new.
      expect(packs().filter((name) => !before.includes(name))).toHaveLength(1);
      await loadsAndContinues(garbage.kept, 'gc:pack-rewrite');
      expectCollected(garbage, before);
    });

    it('gc:delete-pack: killed right after deleting an old pack', async () => {
      const garbage = await makeGarbage();
      const before = packs();
      expectKilledAt(await killedAt('gc:delete-pack', ['gc']), 'gc:delete-pack');
      const gone = before.filter((name) => !packs().includes(name));
      expect(gone).toHaveLength(1);
      expect([garbage.mixed, garbage.whole]).toContain(gone[0]);
      await loadsAndContinues(garbage.kept, 'gc:delete-pack');
      expectCollected(garbage, before);
    });
  });
});
