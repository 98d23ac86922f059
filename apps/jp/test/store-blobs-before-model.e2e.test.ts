import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { anthropicTextStream, createWireServer, formatSseEvent, anthropicStreamEvents, type WireServer } from '@jp/test-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineError, readStoredEvents, runJp, snapshotTree } from './helpers/run-jp.ts';
import { SmallTmpfs } from './helpers/small-tmpfs.ts';
import { copyWorkspace, expectEveryConversationLoads, lastJson, makeWorkspace, treeFiles, writeFiles, type Workspace } from './helpers/store-harness.ts';

// A turn stores its attachments' blobs before the model is called (RFD 029, "Blobs before the
// model"): a full disk fails the query before anything is sent, so nobody pays for an answer that
// cannot be stored; and `jp gc` running while the model answers keeps those blobs.

const MODEL = ['-m', 'anthropic/claude-sonnet-4-6'];

describe('blobs stored before the model is called', () => {
  let server: WireServer;
  let template: Workspace;
  let id = '';

  const provider = () => ['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`];
  const run = (w: Workspace, args: string[], env: NodeJS.ProcessEnv = {}) =>
    runJp([...provider(), ...args], { cwd: w.ws, env: { ...w.env, ANTHROPIC_API_KEY: 'k', ...env }, timeoutMs: 60_000 });
  /** What the store holds, file by file: blobs and conversations, not this machine's `local/` state. */
  const stored = (w: Workspace) => ({ blobs: snapshotTree(path.join(w.ws, '.jp', 'blobs')), conversations: snapshotTree(path.join(w.ws, '.jp', 'conversations')) });
  const pendingLists = (w: Workspace) => {
    try {
      return readdirSync(path.join(w.ws, '.jp', 'local', 'pending'));
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    server = await createWireServer();
    template = await makeWorkspace('jp-blobs-early-');
    server.enqueue(anthropicTextStream('first answer'));
    const first = await run(template, ['-F', 'json', 'query', '--new', ...MODEL, 'one']);
    expect(first.code, first.stderr).toBe(0);
    id = lastJson(first.stdout).conversation;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const cases = [
    { name: 'one file (a loose blob)', point: 'blob-write', files: { 'one.txt': 'a file of its own\n' }, attach: 'one.txt' },
    { name: 'a directory of 40 files (a pack)', point: 'pack-write', files: treeFiles('tree', 40, (i) => `tree file ${i}\n`), attach: 'tree/' },
  ];

  it.each(cases)('a full disk at the write of $name fails before the model is asked, and leaves the store as it was', async ({ point, files, attach }) => {
    const w = copyWorkspace(template, path.join(template.root, `full-${point}`));
    writeFiles(w.ws, files);
    const before = stored(w);
    const sent = server.requests.length;
    const failed = await run(w, ['query', '--id', id, '--attach', attach, 'look'], { JP_TEST_ENOSPC_AT: point });
    expectOneLineError(failed, 1, /could not write \.jp\/blobs\/\S+: the disk is full; free some space and run the command again$/);
    expect(server.requests.length, 'no request may reach the provider').toBe(sent);
    expect(stored(w)).toEqual(before);
    expect(pendingLists(w)).toEqual([]);

    // With room, the same query is sent once and stored whole, its attachment loading from the blob store.
    server.enqueue(anthropicTextStream('seen'));
    const again = await run(w, ['query', '--id', id, '--attach', attach, 'look']);
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests.length).toBe(sent + 1);
    await expectEveryConversationLoads(w);
    expect(pendingLists(w)).toEqual([]);
  });

  it('on a real full disk (1.5 MB attached, 550 KB free) nothing is sent and nothing is left behind', { timeout: 120_000 }, async () => {
    const tmpfs = new SmallTmpfs('8m');
    try {
      const w = copyWorkspace(template, path.join(tmpfs.dir, 'ws'));
      writeFiles(w.ws, { 'big.txt': `${'0123456789abcdef'.repeat(4)}\n`.repeat(24_000) });
      const before = stored(w);
      const sent = server.requests.length;
      expect(tmpfs.leaveFree(550 * 1024)).toBeGreaterThan(0);
      let failed;
      try {
        failed = await run(w, ['-c', 'conversation.attachment.size_policy=allow', 'query', '--id', id, '--attach', 'big.txt', 'big']);
      } finally {
        tmpfs.free();
      }
      expectOneLineError(failed, 1, /the disk is full; free some space and run the command again$/);
      expect(server.requests.length, 'no request may reach the provider').toBe(sent);
      expect(stored(w)).toEqual(before);
    } finally {
      tmpfs.unmount();
    }
  });

  it.each(cases)('`jp gc` run while the model answers keeps the blobs of $name, stored before the call', async ({ files, attach }) => {
    const w = copyWorkspace(template, path.join(template.root, `gc-${attach.replace('/', '')}`));
    writeFiles(w.ws, files);
    let gcDuringTurn: { code: number | null; stderr: string; pending: string[] } | undefined;
    server.enqueue({
      type: 'handler',
      handle: async (_request, response) => {
        const gc = await runJp(['gc'], { cwd: w.ws, env: w.env });
        gcDuringTurn = { code: gc.code, stderr: gc.stderr, pending: pendingLists(w) };
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const event of anthropicStreamEvents([{ type: 'text', text: 'after gc' }])) response.write(formatSseEvent(event));
        response.end();
      },
    });
    const turn = await run(w, ['query', '--id', id, '--attach', attach, 'look']);
    expect(turn.code, turn.stderr).toBe(0);
    expect(gcDuringTurn?.code, gcDuringTurn?.stderr).toBe(0);
    // The turn listed its blobs as pending while the model answered, and removed the list once stored.
    expect(gcDuringTurn?.pending).toHaveLength(1);
    expect(pendingLists(w)).toEqual([]);
    const events = readStoredEvents(w.ws, id);
    const request = events.filter((event) => event.type === 'chat_request').at(-1)!;
    expect(request.resources.length).toBe(Object.keys(files).length);
    // Every attachment of the turn loads from the store after gc.
    const loaded = await expectEveryConversationLoads(w);
    const shown = loaded.get(id)!.filter((event) => event.type === 'chat_request').at(-1)!;
    expect(shown.resources.map((resource: { text: string }) => resource.text).sort()).toEqual(Object.values(files).sort());
    // And a gc after the turn removes nothing it refers to.
    const after = await runJp(['-F', 'json', 'gc'], { cwd: w.ws, env: w.env });
    expect(after.code, after.stderr).toBe(0);
    expect(lastJson(after.stdout).removed).toBe(0);
    rmSync(w.ws, { recursive: true, force: true });
  });
});
