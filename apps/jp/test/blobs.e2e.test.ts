import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { acquireLock } from '../src/store/conversation-lock.ts';
import { expectOneLineError, makeSandbox, readEvents, readStoredEvents, runJp, snapshotTree, turnsOf } from './helpers/run-jp.ts';

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const BIG = 'a line of a file the model should read only once\n'.repeat(40);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 400 }, (_, i) => i % 256)]);

/** Every blob file of a workspace, by sha256. */
function blobsOf(ws: string): string[] {
  const dir = path.join(ws, '.jp', 'blobs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((prefix) => readdirSync(path.join(dir, prefix))).sort();
}
const blobFile = (ws: string, hash: string) => path.join(ws, '.jp', 'blobs', hash.slice(0, 2), hash);
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);

/** A workspace with one conversation that attached big.txt three times and shot.png once. */
async function workspace(name: string) {
  const { root, env } = makeSandbox(`jp-blobs-${name}-`);
  const ws = path.join(root, 'project');
  mkdirSync(ws, { recursive: true });
  writeFileSync(path.join(ws, 'big.txt'), BIG);
  writeFileSync(path.join(ws, 'shot.png'), PNG);
  const jp = (args: string[]) => runJp(args, { cwd: ws, env });
  expect((await jp(['init'])).code).toBe(0);
  const first = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'big.txt', '--attach', 'shot.png', 'one']);
  expect(first.code, first.stderr).toBe(0);
  const id: string = lastJson(first.stdout).conversation;
  for (const query of ['two', 'three']) {
    const next = await jp(['query', '--attach', 'big.txt', query]);
    expect(next.code, next.stderr).toBe(0);
  }
  return { ws, env, jp, id };
}

describe('content-addressed blobs through the binary', () => {
  let ctx: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    ctx = await workspace('main');
  });

  it('attaching the same file three times stores one blob; the events refer to it', () => {
    expect(blobsOf(ctx.ws)).toEqual([sha(BIG), sha(PNG)].sort());
    const stored = readStoredEvents(ctx.ws, ctx.id).filter((event) => event.type === 'chat_request');
    expect(stored.map((request) => request.resources.find((r: { name: string }) => r.name === 'big.txt'))).toEqual(
      Array(3).fill({ uri: `file://${ctx.ws}/big.txt`, mimeType: 'text/plain', name: 'big.txt', $blob: sha(BIG), size: BIG.length, encoding: 'text' }),
    );
    expect(readFileSync(path.join(ctx.ws, '.jp', 'conversations', ctx.id, 'events.jsonl'), 'utf8')).not.toContain('only once');
  });

  it('conversation show -F json prints every resource inline, in its MCP JSON form', async () => {
    const shown = await ctx.jp(['-F', 'json', 'conversation', 'show', ctx.id]);
    expect(shown.code, shown.stderr).toBe(0);
    const requests = JSON.parse(shown.stdout).events.filter((event: { type: string }) => event.type === 'chat_request');
    expect(requests[0].resources).toEqual([
      { uri: `file://${ctx.ws}/big.txt`, mimeType: 'text/plain', name: 'big.txt', text: BIG },
      { uri: `file://${ctx.ws}/shot.png`, mimeType: 'image/png', name: 'shot.png', blob: PNG.toString('base64') },
    ]);
    expect(shown.stdout).not.toContain('$blob');
    // The test helper resolves references the same way.
    expect(turnsOf(readEvents(ctx.ws, ctx.id))[2]!.find((e) => e.type === 'chat_request')!.resources[0].text).toBe(BIG);
  });

  it('a re-attached unchanged file reaches the model as a reference; with deduplication off, in full', async () => {
    const explain = async (...extra: string[]) => {
      const result = await ctx.jp([...extra, 'query', '--explain', '-m', 'anthropic/claude-test', '--attach', 'big.txt', 'four']);
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    const deduped = await explain();
    expect(deduped.split('only once').length - 1).toBe(40);
    expect(deduped.split('[unchanged: same content as').length - 1).toBe(3);
    expect(deduped).toContain(`same content as file://${ctx.ws}/big.txt attached in turn 0 (sha256 ${sha(BIG)})`);
    const full = await explain('-c', 'conversation.deduplication.enabled=false');
    expect(full.split('only once').length - 1).toBe(4 * 40);
    expect(full).not.toContain('[unchanged');
  });

  it('attachment ls shows turn, size and checksum; --check marks an edited file changed', async () => {
    const ls = await ctx.jp(['-F', 'json', 'attachment', 'ls']);
    expect(ls.code, ls.stderr).toBe(0);
    const listed = JSON.parse(ls.stdout);
    expect(listed.attachments).toEqual([
      { index: 1, url: 'big.txt', resources: [{ uri: `file://${ctx.ws}/big.txt`, name: 'big.txt', turn: 2, size: BIG.length, sha256: sha(BIG) }] },
      { index: 2, url: 'shot.png', resources: [{ uri: `file://${ctx.ws}/shot.png`, name: 'shot.png', turn: 0, size: PNG.length, sha256: sha(PNG) }] },
    ]);
    const text = await ctx.jp(['attachment', 'ls']);
    expect(text.stdout).toMatch(new RegExp(`turn +2 +1\\.9 KiB +${sha(BIG).slice(0, 12)} +big\\.txt`));

    appendFileSync(path.join(ctx.ws, 'big.txt'), 'an edit\n');
    rmSync(path.join(ctx.ws, 'shot.png'));
    const check = await ctx.jp(['-F', 'json', 'attachment', 'ls', '--check']);
    expect(check.code, check.stderr).toBe(0);
    const statuses = JSON.parse(check.stdout).attachments.map((a: { resources: Array<{ status: string }> }) => a.resources[0]!.status);
    expect(statuses).toEqual(['changed', 'missing']);
    writeFileSync(path.join(ctx.ws, 'big.txt'), BIG);
    const again = await ctx.jp(['attachment', 'ls', '--check']);
    expect(again.stdout).toMatch(/big\.txt {2}fresh/);
    expect(again.stdout).toMatch(/shot\.png {2}missing/);
  });

  it('stdin snapshots are listed as not declared and not refreshable', async () => {
    const piped = await runJp(['query', '--attach', '-', 'from stdin'], { cwd: ctx.ws, env: ctx.env, input: 'piped text\n' });
    expect(piped.code, piped.stderr).toBe(0);
    const check = JSON.parse((await ctx.jp(['-F', 'json', 'attachment', 'ls', '--check'])).stdout);
    expect(check.undeclared).toEqual([{ uri: `stdin:${sha('piped text\n')}`, name: 'stdin', turn: 3, size: 11, sha256: sha('piped text\n'), status: 'not-refreshable' }]);
  });
});

describe('damaged and missing blobs', () => {
  it('a corrupted blob: one line naming it, exit 1, nothing sent or written', async () => {
    const { ws, jp, id } = await workspace('corrupt');
    writeFileSync(blobFile(ws, sha(BIG)), BIG.replace('once', 'ONCE'));
    const before = snapshotTree(path.join(ws, '.jp'));
    const result = await jp(['query', 'four']);
    expectOneLineError(result, 1, new RegExp(`blob \\.jp/blobs/${sha(BIG).slice(0, 2)}/${sha(BIG)} is damaged`));
    expect(snapshotTree(path.join(ws, '.jp'))).toEqual(before);
    expectOneLineError(await jp(['conversation', 'show', id]), 1, /is damaged/);
    // Commands that need no content still work.
    expect((await jp(['attachment', 'ls'])).code).toBe(0);
    expect((await jp(['conversation', 'ls'])).code).toBe(0);
  });

  it('a missing blob: one line naming the conversation and turn, exit 1; a fork before that turn still works', async () => {
    const { ws, jp, id } = await workspace('missing');
    writeFileSync(path.join(ws, 'late.txt'), 'attached at turn 3\n');
    expect((await jp(['query', '--attach', 'late.txt', 'four'])).code).toBe(0);
    rmSync(blobFile(ws, sha('attached at turn 3\n')));
    const result = await jp(['query', 'five']);
    expectOneLineError(result, 1, new RegExp(`conversation ${id} turn 3 refers to blob \\.jp/blobs/\\w\\w/${sha('attached at turn 3\n')} \\(file://.*/late\\.txt\\), which is missing`));
    expectOneLineError(await jp(['conversation', 'fork', id]), 1, /turn 3, file:\/\/.*late\.txt refers to blob .*, which is missing/);
    const fork = await jp(['-F', 'json', 'conversation', 'fork', id, '--until-turn', '2']);
    expect(fork.code, fork.stderr).toBe(0);
    const forked = await jp(['query', '--id', JSON.parse(fork.stdout).id, 'five']);
    expect(forked.code, forked.stderr).toBe(0);
    expect(forked.stdout).toContain('turn 3: "five"');
  });
});

describe('jp gc', () => {
  it('removes the blobs of a removed conversation and nothing else', async () => {
    const { ws, jp, id } = await workspace('gc');
    writeFileSync(path.join(ws, 'other.txt'), 'only in the second conversation\n');
    const second = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'other.txt', '--attach', 'big.txt', 'x']);
    const other = lastJson(second.stdout).conversation;
    expect((await jp(['-F', 'json', 'gc'])).stdout.trim()).toBe('{"removed":0,"bytes":0,"tracked":0}');
    expect((await jp(['conversation', 'rm', '--yes', other])).code).toBe(0);
    const gc = await jp(['-F', 'json', 'gc']);
    expect(gc.code, gc.stderr).toBe(0);
    expect(JSON.parse(gc.stdout)).toEqual({ removed: 1, bytes: 32, tracked: 0 });
    expect(blobsOf(ws)).toEqual([sha(BIG), sha(PNG)].sort());
    expect((await jp(['query', '--id', id, 'still whole'])).code).toBe(0);
    expect((await jp(['gc'])).stderr).toMatch(/nothing to collect/);
  });

  it('while a writer holds the blob store it waits, then refuses with exit 5, deleting nothing', async () => {
    const { ws, jp, id } = await workspace('gc-locked');
    await jp(['conversation', 'rm', '--yes', id]);
    const release = await acquireLock(path.join(ws, '.jp', 'blobs.lock'), { timeoutMs: 0, what: 'test' });
    try {
      const result = await jp(['-c', 'conversation.lock_timeout_secs=0.3', 'gc']);
      expectOneLineError(result, 5, /blob store of this workspace .* is locked by process/);
      expect(blobsOf(ws)).toHaveLength(2);
    } finally {
      release();
    }
    expect(JSON.parse((await jp(['-F', 'json', 'gc'])).stdout).removed).toBe(2);
  });
});

describe('a workspace written before blobs', () => {
  it('loads inline events, takes a new query, and writes the new turn with blobs', async () => {
    const { root, env } = makeSandbox('jp-blobs-old-');
    const ws = path.join(root, 'project');
    mkdirSync(ws, { recursive: true });
    const jp = (args: string[]) => runJp(args, { cwd: ws, env });
    expect((await jp(['init'])).code).toBe(0);
    const id = '0mhz3k1ab-x7k2q';
    const dir = path.join(ws, '.jp', 'conversations', id);
    mkdirSync(dir, { recursive: true });
    const t = '2025-06-01T00:00:00.000Z';
    writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify({ createdAt: t, lastActivityAt: t, turnCount: 1, title: 'old' }));
    writeFileSync(path.join(dir, 'base-config.json'), JSON.stringify({ assistant: { model: 'echo' } }));
    const old = [
      { type: 'turn_start', timestamp: t },
      { type: 'config_delta', timestamp: t, delta: { conversation: { attachments: ['notes.md'] } } },
      { type: 'chat_request', timestamp: t, content: 'old question', resources: [{ uri: `file://${ws}/notes.md`, mimeType: 'text/markdown', name: 'notes.md', text: BIG }] },
      { type: 'chat_response', timestamp: t, message: 'old answer' },
    ];
    writeFileSync(path.join(dir, 'events.jsonl'), old.map((event) => `${JSON.stringify(event)}\n`).join(''));
    writeFileSync(path.join(ws, 'notes.md'), BIG);

    const ls = JSON.parse((await jp(['-F', 'json', 'attachment', 'ls', '--id', id, '--check'])).stdout);
    expect(ls.attachments[0].resources).toEqual([{ uri: `file://${ws}/notes.md`, name: 'notes.md', turn: 0, size: BIG.length, sha256: sha(BIG), status: 'fresh' }]);
    const result = await jp(['query', '--id', id, '--attach', 'notes.md', 'new question']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('turn 1: "new question"');
    const stored = readStoredEvents(ws, id);
    expect(stored[2]!.resources[0].text).toBe(BIG); // history is never rewritten
    expect(stored.at(-2)!.resources[0]).toMatchObject({ $blob: sha(BIG), encoding: 'text' });
    expect(blobsOf(ws)).toEqual([sha(BIG)]);
    const shown = JSON.parse((await jp(['-F', 'json', 'conversation', 'show', id])).stdout);
    expect(shown.events.filter((e: { type: string }) => e.type === 'chat_request').map((e: { resources: Array<{ text: string }> }) => e.resources[0]!.text)).toEqual([BIG, BIG]);
  });
});

describe('attaching a directory again', () => {
  /** sha256 per resource name, from echo's description of the request. */
  const digests = (stdout: string) =>
    Object.fromEntries([...stdout.matchAll(/resource file:\/\/\S*\/(\S+) \S+ \d+ bytes sha256:([0-9a-f]{64})/g)].map((m) => [m[1], m[2]]));

  it('uses the stored content of files unchanged since, and reads a changed one, even at the same size', async () => {
    const { root, env } = makeSandbox('jp-blobs-again-');
    const ws = path.join(root, 'project');
    mkdirSync(path.join(ws, 'src'), { recursive: true });
    const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/f${String(i).padStart(2, '0')}.ts`, `export const v${i} = ${i};\n`]));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(ws, name), text);
    const jp = (args: string[]) => runJp(args, { cwd: ws, env });
    expect((await jp(['init'])).code).toBe(0);
    // Stamps are trusted only once a file has been left alone for a while (racy stamps).
    await new Promise((resolve) => setTimeout(resolve, 2_700));

    const first = await jp(['query', '--new', '-m', 'echo', '--attach', 'src/', 'one']);
    expect(first.code, first.stderr).toBe(0);
    const cache = JSON.parse(readFileSync(path.join(ws, '.jp', 'local', 'cache', 'file-contents.json'), 'utf8'));
    expect(cache.files.map((row: unknown[]) => row[0]).sort()).toEqual(Object.keys(files).map((name) => `file://${ws}/${name}`));

    writeFileSync(path.join(ws, 'src/f03.ts'), 'export const v3 = 9;\n');
    const second = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'src/', 'two']);
    expect(second.code, second.stderr).toBe(0);
    const expected = Object.fromEntries(Object.keys(files).map((name) => [name.slice('src/'.length), sha(readFileSync(path.join(ws, name)))]));
    expect(digests(first.stdout)).toEqual({ ...expected, 'f03.ts': sha(files['src/f03.ts']!) });
    const id: string = lastJson(second.stdout).conversation;
    const shown = await jp(['-F', 'json', 'conversation', 'show', id]);
    const request = JSON.parse(shown.stdout).events.find((event: { type: string }) => event.type === 'chat_request');
    expect(Object.fromEntries(request.resources.map((r: { name: string; text: string }) => [r.name, r.text]))).toEqual({
      ...files,
      'src/f03.ts': 'export const v3 = 9;\n',
    });
    expect(second.stdout).toContain(sha('export const v3 = 9;\n'));
  });
});

describe('attaching a large directory', () => {
  it('stores what the reader threads spooled as packs, leaving no spool file, and shows the content back verbatim', async () => {
    const { root, env } = makeSandbox('jp-blobs-spool-');
    const ws = path.join(root, 'project');
    mkdirSync(path.join(ws, 'tree'), { recursive: true });
    // Over the 200 files from which worker threads read (and write the spool).
    const files = Object.fromEntries(Array.from({ length: 240 }, (_, i) => [`tree/f${String(i).padStart(3, '0')}.txt`, `file ${i}\n`.repeat(1 + (i % 7))]));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(ws, name), text);
    const jp = (args: string[]) => runJp(args, { cwd: ws, env });
    expect((await jp(['init'])).code).toBe(0);

    // A query that fails after the tree was read (its second attachment fails) leaves .jp/ as it was.
    const before = snapshotTree(path.join(ws, '.jp'));
    const failed = await jp(['query', '--new', '-m', 'echo', '--attach', 'tree/', '--attach', 'cmd:false', 'x']);
    expect(failed.code).toBe(4);
    expect(snapshotTree(path.join(ws, '.jp'))).toEqual(before);

    const stored = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'tree/', 'x']);
    expect(stored.code, stored.stderr).toBe(0);
    const packs = readdirSync(path.join(ws, '.jp', 'blobs', 'packs'));
    expect(packs.length).toBeGreaterThan(0);
    expect(packs.every((name) => /^[0-9a-f]{64}\.pack$/.test(name))).toBe(true);
    const shown = await jp(['-F', 'json', 'conversation', 'show', lastJson(stored.stdout).conversation]);
    const request = JSON.parse(shown.stdout).events.find((event: { type: string }) => event.type === 'chat_request');
    expect(Object.fromEntries(request.resources.map((r: { name: string; text: string }) => [r.name, r.text]))).toEqual(files);
    // And jp gc keeps every one of them.
    expect((await jp(['gc'])).code).toBe(0);
    expect((await jp(['-F', 'json', 'conversation', 'show', lastJson(stored.stdout).conversation])).code).toBe(0);
  });

  it('begun before the command has parsed its arguments, leaves .jp/ as it was when the command fails or stores nothing', async () => {
    const { root, env } = makeSandbox('jp-blobs-early-');
    const ws = path.join(root, 'project');
    // Subdirectories: the binary starts walking and reading (into a spool file) from the command line alone.
    const files = Object.fromEntries(Array.from({ length: 240 }, (_, i) => [`tree/${i % 3}/f${String(i).padStart(3, '0')}.txt`, `file ${i}\n`]));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
      writeFileSync(path.join(ws, name), text);
    }
    const jp = (args: string[], cwd = ws) => runJp(args, { cwd, env });
    expect((await jp(['init'])).code).toBe(0);
    const before = snapshotTree(path.join(ws, '.jp'));

    // Refused once the command parses its options, after the tree was begun.
    const refused = await jp(['query', '--new', '--id', 'x', '-m', 'echo', '--attach', 'tree/', 'q']);
    expectOneLineError(refused, 2, /--new and --id exclude each other/);
    expect(snapshotTree(path.join(ws, '.jp'))).toEqual(before);
    for (const flag of ['--no-persist', '--explain']) {
      const result = await jp(['query', '--new', flag, '-m', 'echo', '--attach', 'tree/', 'q']);
      expect(result.code, result.stderr).toBe(0);
      expect(snapshotTree(path.join(ws, '.jp'))).toEqual(before);
    }

    // From outside, with -w and an absolute path: the same tree, stored whole.
    const stored = await jp(['-w', ws, '-F', 'json', 'query', '--new', '-m', 'echo', '--attach', path.join(ws, 'tree'), 'x'], root);
    expect(stored.code, stored.stderr).toBe(0);
    expect(readdirSync(path.join(ws, '.jp', 'blobs', 'packs')).every((name) => /^[0-9a-f]{64}\.pack$/.test(name))).toBe(true);
    const shown = await jp(['-F', 'json', 'conversation', 'show', lastJson(stored.stdout).conversation]);
    const request = JSON.parse(shown.stdout).events.find((event: { type: string }) => event.type === 'chat_request');
    expect(Object.fromEntries(request.resources.map((r: { name: string; text: string }) => [r.name, r.text]))).toEqual(files);
  });
});
