import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, readEvents, runJp, turnsOf } from './helpers/run-jp.ts';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

// The walking skeleton's "done when": init → query with an attachment → follow-ups → attachment
// ls/rm → fork, all through the built binary on the offline echo model.
describe('a conversation on the echo model, through the binary', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jp = (args: string[], input?: string) => runJp(args, { cwd: ws, env, input });
  let id = '';

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'a.txt'), 'alpha file\n');
    writeFileSync(path.join(ws, 'b.txt'), 'bravo file\n');
    const init = await jp(['init']);
    expect(init.code, init.stderr).toBe(0);
  });

  it('turn 0 carries a.txt as a resource and the echo answer describes it', async () => {
    const result = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', '--attach', 'a.txt', 'What is in a.txt?']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const final = lines.at(-1);
    expect(final).toMatchObject({ type: 'result', turn: 0 });
    id = final.conversation;
    expect(id).toMatch(/^[0-9a-z]{9}-[0-9a-z]{5}$/);
    expect(final.text).toContain(`sha256:${sha('alpha file\n')}`);

    const turns = turnsOf(readEvents(ws, id));
    expect(turns).toHaveLength(1);
    const request = turns[0]!.find((e) => e.type === 'chat_request')!;
    expect(request.content).toBe('What is in a.txt?');
    expect(request.resources).toEqual([
      { uri: `file://${ws}/a.txt`, mimeType: 'text/plain', name: 'a.txt', text: 'alpha file\n' },
    ]);
  });

  it('a follow-up without --attach carries no resources', async () => {
    const result = await jp(['query', 'And now?']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('turn 1: "And now?"');
    const turns = turnsOf(readEvents(ws, id));
    expect(turns).toHaveLength(2);
    const request = turns[1]!.find((e) => e.type === 'chat_request')!;
    expect(request).not.toHaveProperty('resources');
    expect(turns[1]!.some((e) => e.type === 'config_delta')).toBe(false);
  });

  it('--attach b.txt at turn 2 puts only b in turn 2 and records a config delta', async () => {
    const result = await jp(['q', '--attach', './b.txt', 'Compare']);
    expect(result.code, result.stderr).toBe(0);
    const turns = turnsOf(readEvents(ws, id));
    expect(turns).toHaveLength(3);
    const request = turns[2]!.find((e) => e.type === 'chat_request')!;
    expect(request.resources.map((r: { name: string }) => r.name)).toEqual(['b.txt']);
    const delta = turns[2]!.find((e) => e.type === 'config_delta')!;
    expect(delta.delta.conversation.attachments).toEqual(['a.txt', 'b.txt']);
    // Turn 0 still holds its snapshot of a.txt, untouched.
    expect(turns[0]!.find((e) => e.type === 'chat_request')!.resources[0].name).toBe('a.txt');
  });

  it('attachment ls lists both; rm a.txt leaves b and the turn-0 snapshot', async () => {
    const ls = await jp(['-F', 'json', 'attachment', 'ls']);
    expect(ls.code, ls.stderr).toBe(0);
    expect(JSON.parse(ls.stdout).attachments.map((a: { url: string }) => a.url)).toEqual(['a.txt', 'b.txt']);

    const rm = await jp(['attachment', 'rm', 'a.txt']);
    expect(rm.code, rm.stderr).toBe(0);
    const after = await jp(['-F', 'json', 'a', 'ls']);
    expect(JSON.parse(after.stdout).attachments).toEqual([
      { index: 1, url: 'b.txt', resources: [expect.objectContaining({ uri: expect.stringMatching(/\/b\.txt$/), turn: 2 })] },
    ]);
    const turns = turnsOf(readEvents(ws, id));
    expect(turns[0]!.find((e) => e.type === 'chat_request')!.resources[0].text).toBe('alpha file\n');
  });

  it('the next query re-resolves nothing: b is already in the stream, a is no longer declared', async () => {
    const result = await jp(['query', 'Anything new?']);
    expect(result.code, result.stderr).toBe(0);
    const turns = turnsOf(readEvents(ws, id));
    expect(turns[3]!.find((e) => e.type === 'chat_request')).not.toHaveProperty('resources');
  });

  it('conversation fork prints a new id whose stream has the same turns', async () => {
    const fork = await jp(['conversation', 'fork']);
    expect(fork.code, fork.stderr).toBe(0);
    const forkId = fork.stdout.trim();
    expect(forkId).not.toBe(id);
    expect(readEvents(ws, forkId)).toEqual(readEvents(ws, id));
    const ls = await jp(['-F', 'json', 'conversation', 'ls']);
    const listed = JSON.parse(ls.stdout).conversations;
    expect(listed.find((c: { id: string }) => c.id === forkId)).toMatchObject({ turns: 4, forkedFrom: { id, turn: 3 } });
  });

  it('a fork with --no-turns resolves the declared attachments at its first turn', async () => {
    const fork = await jp(['-F', 'json', 'conversation', 'fork', id, '--no-turns']);
    expect(fork.code, fork.stderr).toBe(0);
    const forkId = JSON.parse(fork.stdout).id;
    // No turns: what the source set itself (-m, its declarations) is the fork's own, one delta before its first turn.
    expect(readEvents(ws, forkId)).toEqual([
      { type: 'config_delta', timestamp: expect.any(String), delta: { assistant: { model: 'echo' }, conversation: { attachments: ['b.txt'] } } },
    ]);
    const result = await jp(['query', '--id', forkId, 'Fresh start']);
    expect(result.code, result.stderr).toBe(0);
    const turns = turnsOf(readEvents(ws, forkId));
    expect(turns[0]!.find((e) => e.type === 'chat_request')!.resources.map((r: { name: string }) => r.name)).toEqual(['b.txt']);
  });

  it('piped stdin is joined with the query text', async () => {
    const result = await jp(['query', '--id', id, 'Summarise:'], 'line one\nline two\n');
    expect(result.code, result.stderr).toBe(0);
    const turns = turnsOf(readEvents(ws, id));
    expect(turns.at(-1)!.find((e) => e.type === 'chat_request')!.content).toBe('Summarise:\n\nline one\nline two');
  });
});
