import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, readStoredEvents, runJp, turnsOf } from './helpers/run-jp.ts';

// Issue K, item 1, through the built binary on the offline echo model: at the start of a turn,
// declared files whose source changed (or was deleted) since their newest snapshot get a notice in
// that turn's request, stored with it; `--explain`, `conversation show` and a fork reproduce it,
// and earlier requests stay byte for byte the same.

type Event = Record<string, any>;

function workspace(prefix: string) {
  const { root, env } = makeSandbox(prefix);
  const ws = path.join(root, 'project');
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 60_000 });
  const ok = async (args: string[]) => {
    const result = await jp(args);
    expect(result.code, result.stderr).toBe(0);
    return result;
  };
  /** The echo request `--explain` prints for a next query: its turns, each with the text the model reads. */
  const explain = async (id: string, query = 'explain me') => {
    const result = await ok(['query', '--id', id, '--explain', query]);
    return JSON.parse(result.stdout).request.turns as Array<{ index: number; query: string; resources: unknown[] }>;
  };
  /** The notices stored on the last turn's request. */
  const lastNotices = (id: string): Event[] | undefined => turnsOf(readStoredEvents(ws, id)).at(-1)!.find((event) => event.type === 'chat_request')!.notices;
  return { root, ws, env, jp, ok, explain, lastNotices };
}

const CHANGED = 'src/main.rs changed since it was attached in turn 0 (call refresh_resource to read it)';

describe('freshness notices', { timeout: 120_000 }, () => {
  const { root, ws, ok, explain, lastNotices } = workspace('jp-e2e-fresh-');
  let id = '';
  const write = (name: string, text: string) => writeFileSync(path.join(ws, name), text);

  beforeAll(async () => {
    await ok(['init']);
    write('src/main.rs', 'fn main() {}\n');
    write('src/lib.rs', 'pub fn lib() {}\n');
    write('notes.txt', 'notes\n');
    writeFileSync(path.join(root, 'outside.txt'), 'outside\n');
    const first = await ok(['query', '--new', '-m', 'echo', '--attach', 'src/', '--attach', 'notes.txt', '--attach', '../outside.txt', 'first']);
    id = /new conversation (\S+)/.exec(first.stderr)![1]!;
    expect(first.stdout).toMatch(/resource external:[0-9a-f]+\/outside.txt /);
  });

  it('gives no notice when nothing changed, nor after only touching a file’s times', async () => {
    await ok(['query', '--id', id, 'nothing changed']);
    expect(lastNotices(id)).toBeUndefined();
    const future = new Date(Date.now() + 60_000);
    utimesSync(path.join(ws, 'src/main.rs'), future, future);
    utimesSync(path.join(ws, 'notes.txt'), new Date(0), new Date(0));
    await ok(['query', '--id', id, 'only touched']);
    expect(lastNotices(id)).toBeUndefined();
  });

  it('never checks an external: snapshot, even when the file outside changed', async () => {
    writeFileSync(path.join(root, 'outside.txt'), 'outside, edited\n');
    await ok(['query', '--id', id, 'outside edited']);
    expect(lastNotices(id)).toBeUndefined();
  });

  let before: Awaited<ReturnType<typeof explain>> = [];
  it('notices an edited declared file in this turn’s request, once, and keeps earlier requests byte-identical', async () => {
    before = await explain(id);
    write('src/main.rs', 'fn main() { println!("hi"); }\n');
    await ok(['query', '--id', id, 'after the edit']);
    expect(lastNotices(id)).toEqual([{ uri: expect.stringMatching(/^file:\/\/.*\/src\/main\.rs$/), status: 'changed', turn: 0, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), text: CHANGED }]);
    const after = await explain(id);
    // Every turn the earlier request had is the same, byte for byte, in the next one.
    expect(JSON.stringify(after.slice(0, before.length - 1))).toBe(JSON.stringify(before.slice(0, -1)));
    expect(after.at(-2)!.query).toBe(`after the edit\n\n[jp] ${CHANGED}`);
    // Told once: the next turn says nothing more about the same change.
    await ok(['query', '--id', id, 'again']);
    expect(lastNotices(id)).toBeUndefined();
  });

  it('shows the notice in conversation show, and a fork reproduces it', async () => {
    const shown = await ok(['conversation', 'show', id]);
    expect(shown.stdout).toContain(`notice ${CHANGED}`);
    const fork = (await ok(['conversation', 'fork', id])).stdout.trim();
    const forkTurns = await explain(fork);
    const original = await explain(id);
    expect(JSON.stringify(forkTurns)).toBe(JSON.stringify(original));
    expect(forkTurns.some((turn) => turn.query.endsWith(`[jp] ${CHANGED}`))).toBe(true);
  });

  it('notices a deleted file', async () => {
    rmSync(path.join(ws, 'src/lib.rs'));
    await ok(['query', '--id', id, 'after the delete']);
    expect(lastNotices(id)!.map((notice) => notice.text)).toEqual(['src/lib.rs was deleted since it was attached in turn 0']);
  });

  it('says nothing under refresh = "manual"', async () => {
    write('notes.txt', 'notes, edited\n');
    const manual = await ok(['query', '--id', id, '-c', 'conversation.attachment.refresh=manual', 'manual']);
    expect(manual.code).toBe(0);
    expect(lastNotices(id)).toBeUndefined();
    // Back to notify (the conversation stored the key it set): the change is told now.
    await ok(['query', '--id', id, '-c', 'conversation.attachment.refresh=notify', 'notify']);
    expect(lastNotices(id)!.map((notice) => notice.text)).toEqual(['notes.txt changed since it was attached in turn 0 (call refresh_resource to read it)']);
  });
});

describe('refresh per declaration: the table form of conversation.attachments', { timeout: 120_000 }, () => {
  const { ws, ok, jp, lastNotices } = workspace('jp-e2e-fresh-table-');
  const write = (name: string, text: string) => writeFileSync(path.join(ws, name), text);

  it('follows each declaration’s own refresh, and attachment ls and rm take the table form', async () => {
    await ok(['init']);
    write('src/main.rs', 'fn main() {}\n');
    write('notes.txt', 'notes\n');
    writeFileSync(
      path.join(ws, '.jp', 'config.toml'),
      '[conversation]\nattachments = [{ url = "src/", refresh = "manual" }, "notes.txt"]\n',
    );
    const first = await ok(['query', '--new', '-m', 'echo', 'first']);
    const id = /new conversation (\S+)/.exec(first.stderr)![1]!;
    expect(first.stdout).toMatch(/src\/main\.rs/);
    write('src/main.rs', 'fn main() { edited(); }\n');
    write('notes.txt', 'notes, edited\n');
    await ok(['query', '--id', id, 'next']);
    expect(lastNotices(id)!.map((notice) => notice.text)).toEqual(['notes.txt changed since it was attached in turn 0 (call refresh_resource to read it)']);

    const listed = await ok(['attachment', 'ls', '--id', id]);
    expect(listed.stdout).toMatch(/1\s+src\//);
    expect(listed.stdout).toMatch(/2\s+notes\.txt/);
    const removed = await jp(['-F', 'json', 'attachment', 'rm', '--id', id, 'notes.txt']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout).attachments).toEqual([{ url: 'src/', refresh: 'manual' }]);
  });
});

describe('new files under a declared directory', { timeout: 120_000 }, () => {
  const { ws, ok, explain, lastNotices } = workspace('jp-e2e-fresh-new-');
  const write = (name: string, text: string) => writeFileSync(path.join(ws, name), text);
  const NEW = 'src/c.ts is new under src/ (declared in turn 0; call refresh_resource to read it)';

  it('tells of a file created under src/ after it was read, once; not of an ignored one, nor of one attached now', async () => {
    await ok(['init']);
    write('src/a.ts', 'export const a = 1;\n');
    write('.gitignore', 'src/generated/\n');
    const first = await ok(['query', '--new', '-m', 'echo', '--attach', 'src/', 'first']);
    const id = /new conversation (\S+)/.exec(first.stderr)![1]!;
    write('src/c.ts', 'export const c = 3;\n');
    mkdirSync(path.join(ws, 'src/generated'), { recursive: true });
    write('src/generated/out.ts', 'generated\n');

    const turns = await explain(id);
    expect(turns.at(-1)!.query).toBe(`explain me\n\n[jp] ${NEW}`);
    const second = await ok(['query', '--id', id, 'second']);
    expect(second.stderr).toContain(`notice: ${NEW}`);
    expect(lastNotices(id)).toEqual([{ uri: `file://${ws}/src/c.ts`, status: 'new', turn: 0, declaration: 'src/', text: NEW }]);
    expect((await ok(['conversation', 'show', id])).stdout).toContain(`notice ${NEW}`);

    // Said once.
    await ok(['query', '--id', id, 'third']);
    expect(lastNotices(id)).toBeUndefined();
    // A file attached in the turn it appears in needs no notice.
    write('src/d.ts', 'export const d = 4;\n');
    await ok(['query', '--id', id, '--attach', 'src/d.ts', 'fourth']);
    expect(lastNotices(id)).toBeUndefined();
  });
});
