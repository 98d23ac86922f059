import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runJp } from './helpers/run-jp.ts';
import { expectEveryConversationLoads, expectKilledAt, findFiles, lastJson, makeWorkspace, treeFiles, waitForOldChangeTimes, writeFiles, type Workspace } from './helpers/store-harness.ts';

// kill -9 exactly at each named write of the store (JP_TEST_CRASH_AT, store/test-hooks.ts), where
// random delays rarely land (issue 36). Each case shows the kill landed (the process died by a
// signal, and the write it names is on disk), then that the store loads and the conversation goes on.
const TREE = treeFiles('d', 40, (i) => `tree file ${i}\n`);

describe('kill -9 at each named crash point, then load and continue', { timeout: 120_000 }, () => {
  let w: Workspace;
  let id = '';
  const conversationDir = () => path.join(w.ws, '.jp', 'conversations', id);
  const eventsText = () => readFileSync(path.join(conversationDir(), 'events.jsonl'), 'utf8');
  const blobFiles = () => findFiles(path.join(w.ws, '.jp', 'blobs'), (name) => !name.startsWith('.'));
  const killedAt = (point: string, args: string[]) => runJp(args, { cwd: w.ws, env: { ...w.env, JP_TEST_CRASH_AT: point }, timeoutMs: 60_000 });

  beforeAll(async () => {
    w = await makeWorkspace('jp-crash-points-');
    writeFiles(w.ws, { ...TREE, 'one.txt': 'a single file\n', 'two.txt': 'another single file\n' });
    await waitForOldChangeTimes();
    const started = await w.jp(['-F', 'json', 'query', '--new', '-m', 'echo', 'start']);
    expect(started.code, started.stderr).toBe(0);
    id = lastJson(started.stdout).conversation;
  });

  /** After the kill: every conversation loads, gc runs, and a follow-up on the conversation answers. */
  async function loadsAndContinues(label: string, leftovers: string[] = []): Promise<void> {
    await expectEveryConversationLoads(w);
    // gc's clean-up is checked on leftovers that are there: each existed before it ran.
    for (const file of leftovers) expect(existsSync(file), file).toBe(true);
    const gc = await w.jp(['gc']);
    expect(gc.code, gc.stderr).toBe(0);
    for (const file of leftovers) expect(existsSync(file), `${file} after gc`).toBe(false);
    const next = await w.jp(['query', '--id', id, `after ${label}`]);
    expect(next.code, next.stderr).toBe(0);
    expect(eventsText()).toContain(`after ${label}`);
  }

  it('blob-write: killed right after a loose blob is in place', async () => {
    const before = blobFiles().length;
    expectKilledAt(await killedAt('blob-write', ['query', '--id', id, '--attach', 'one.txt', 'at blob-write']), 'blob-write');
    expect(blobFiles().length).toBe(before + 1);
    expect(eventsText()).not.toContain('at blob-write');
    await loadsAndContinues('blob-write');
  });

  it('pack-write: killed right after a pack is in place', async () => {
    const packs = () => findFiles(path.join(w.ws, '.jp', 'blobs'), (name) => name.endsWith('.pack'));
    const before = packs().length;
    expectKilledAt(await killedAt('pack-write', ['query', '--id', id, '--attach', 'd/', 'at pack-write']), 'pack-write');
    expect(packs().length).toBe(before + 1);
    expect(eventsText()).not.toContain('at pack-write');
    await loadsAndContinues('pack-write');
  });

  it('events-append: killed right after the lines are flushed, with the lock still held', async () => {
    // metadata.json is written once (RFD 029): a rename with the turn is a `title` event in the same append.
    const metadataBefore = readFileSync(path.join(conversationDir(), 'metadata.json'), 'utf8');
    expectKilledAt(await killedAt('events-append', ['query', '--id', id, '--title', 'renamed at events-append', '--attach', 'two.txt', 'at events-append']), 'events-append');
    expect(eventsText()).toContain('at events-append');
    expect(eventsText()).toContain('"type":"title","timestamp"');
    expect(readFileSync(path.join(conversationDir(), 'metadata.json'), 'utf8')).toBe(metadataBefore);
    expect(readdirSync(conversationDir()).filter((name) => name.startsWith('.metadata.json.'))).toEqual([]);
    await loadsAndContinues('events-append');
    const listed = JSON.parse((await w.jp(['-F', 'json', 'conversation', 'ls'])).stdout).conversations.find((c: { id: string }) => c.id === id);
    expect(listed.title).toBe('renamed at events-append');
  });

  it('events-append:torn: killed with the first line of a turn written, the rest not', async () => {
    const before = eventsText();
    const shown = async () => JSON.parse((await w.jp(['-F', 'json', 'conversation', 'show', id])).stdout).events as Array<{ type: string; content?: string }>;
    const eventsBefore = await shown();
    expectKilledAt(await killedAt('events-append:torn', ['query', '--id', id, 'at events-append:torn']), 'events-append:torn');
    // On disk: a whole turn_start line of the turn, and nothing after it.
    const added = eventsText().slice(before.length);
    expect(added).toMatch(/^\{"type":"turn_start"[^\n]*\}\n$/);
    // Not part of the conversation: neither shown nor counted, and the next append cuts it off.
    expect(await shown()).toEqual(eventsBefore);
    await loadsAndContinues('events-append:torn');
    expect(eventsText()).not.toContain(added);
    const events = await shown();
    expect(events.filter((event) => event.type === 'turn_start')).toHaveLength(eventsBefore.filter((event) => event.type === 'turn_start').length + 1);
  });
});

