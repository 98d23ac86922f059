import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, readEvents, runJp, turnsOf } from './helpers/run-jp.ts';

// Many processes at once: one turn at a time per conversation, distinct conversations in
// parallel, and every turn that was reported as added is intact.
describe('concurrent queries', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jp = (args: string[]) => runJp(args, { cwd: ws, env, timeoutMs: 60_000 });
  let shared = '';

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    expect((await jp(['init'])).code).toBe(0);
    const first = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', 'start']);
    shared = JSON.parse(first.stdout.trim().split('\n').at(-1)!).conversation;
  });

  it('16 processes, 8 on one conversation: each adds its turn or exits 5; all turns intact', async () => {
    const onShared = Array.from({ length: 8 }, (_, i) => jp(['-F', 'json', 'query', '--id', shared, `shared ${i}`]));
    const onNew = Array.from({ length: 8 }, (_, i) => jp(['-F', 'json', 'query', '--new', '-m', 'echo', `own ${i}`]));
    const shares = await Promise.all(onShared);
    const owns = await Promise.all(onNew);

    for (const result of [...shares, ...owns]) expect([0, 5], result.stderr).toContain(result.code);
    const added = shares.filter((result) => result.code === 0).length;
    const turns = turnsOf(readEvents(ws, shared));
    expect(turns).toHaveLength(1 + added);
    // Every turn is whole: start, request, response, in that order, never interleaved.
    for (const turn of turns) expect(turn.map((event) => event.type)).toEqual(turn.length === 4 ? ['turn_start', 'config_delta', 'chat_request', 'chat_response'] : ['turn_start', 'chat_request', 'chat_response']);
    const queries = turns.slice(1).map((turn) => turn.find((event) => event.type === 'chat_request')!.content).sort();
    expect(queries).toEqual(shares.map((result, i) => (result.code === 0 ? `shared ${i}` : undefined)).filter(Boolean).sort());

    const ids = owns.filter((result) => result.code === 0).map((result) => JSON.parse(result.stdout.trim().split('\n').at(-1)!).conversation);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(turnsOf(readEvents(ws, id))).toHaveLength(1);
    const listed = await jp(['-F', 'json', 'conversation', 'ls']);
    expect(JSON.parse(listed.stdout).conversations).toHaveLength(1 + ids.length);
  });

  it('a holder that keeps the lock makes others exit 5 naming its pid', async () => {
    const { acquireLock } = await import('../src/store/conversation-lock.ts');
    const release = await acquireLock(path.join(ws, '.jp', 'conversations', shared, 'lock'), { timeoutMs: 0, what: 'test' });
    try {
      const result = await jp(['-c', 'conversation.lock_timeout_secs=0.3', 'query', '--id', shared, 'blocked']);
      expect(result.code, result.stderr).toBe(5);
      expect(result.stderr).toMatch(new RegExp(`locked by process ${process.pid}`));
    } finally {
      release();
    }
  });
});
