import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { JP_BIN, makeSandbox, runJp } from './helpers/run-jp.ts';

/** Starts a query and kills it with SIGKILL after `delayMs`, whatever it is doing by then. */
function killedQuery(ws: string, env: NodeJS.ProcessEnv, id: string, delayMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [JP_BIN, 'query', '--id', id, `crash ${delayMs}`], { cwd: ws, env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

// kill -9 at random moments: the conversation always loads, and every stored turn is whole.
describe('crash safety', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  let id = '';

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    const first = await runJp(['-F', 'json', 'query', '--new', '-m', 'echo', 'start'], { cwd: ws, env });
    id = JSON.parse(first.stdout.trim().split('\n').at(-1)!).conversation;
  });

  it('100 queries killed at random delays never leave a conversation that fails to load', { timeout: 120_000 }, async () => {
    // Delays spread over a query's lifetime (start-up, lock, resolution, append, metadata).
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 100; i++) await killedQuery(ws, env, id, Math.floor(random() * 250));

    const show = await runJp(['-F', 'json', 'conversation', 'show', id], { cwd: ws, env });
    expect(show.code, show.stderr).toBe(0);
    const events = JSON.parse(show.stdout).events as Array<{ type: string }>;
    // Turns are written in one append: every turn_start is followed by its request and its answer.
    const starts = events.map((event, i) => (event.type === 'turn_start' ? i : -1)).filter((i) => i >= 0);
    for (const start of starts) {
      const turn = events.slice(start, starts.find((s) => s > start) ?? events.length).map((event) => event.type);
      expect(turn.at(-1)).toBe('chat_response');
    }
    // And it still takes the next query.
    const next = await runJp(['query', '--id', id, 'after the storm'], { cwd: ws, env });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toContain('"after the storm"');
  });
});
