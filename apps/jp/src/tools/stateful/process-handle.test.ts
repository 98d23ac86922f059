import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HandleReply, StatefulHandle } from './handle.ts';
import { spawnProcessHandle } from './process-handle.ts';

const REPL = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'repl.mjs');
const text = (reply: HandleReply) => reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const pidOf = (output: string) => Number(/pid (\d+)/.exec(output)![1]);

const open: StatefulHandle[] = [];
async function spawn(mode: string, options: { bufferBytes?: number; graceMs?: number } = {}) {
  const handle = await spawnProcessHandle('h', {
    command: process.execPath,
    args: [REPL, mode],
    cwd: process.cwd(),
    env: process.env,
    arguments: { who: 'test' },
    graceMs: options.graceMs ?? 2000,
    bufferBytes: options.bufferBytes ?? 1024 * 1024,
    askUser: async () => undefined,
    warn: () => {},
  });
  open.push(handle);
  return handle;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((handle) => handle.abort()));
});

describe('process handle', () => {
  it('fetch returns what arrived since the last fetch; apply writes a line; quit ends it with exit 0', async () => {
    const handle = await spawn('repl');
    expect(text(await handle.fetch(5000))).toContain('ready> ');
    expect(text(await handle.fetch(0))).toBe('(no new output)');
    const applied = await handle.apply('hello');
    expect(applied.status).toBe('running');
    const echoed = await handle.fetch(5000);
    expect(text(echoed)).toBe('echo: hello\nready> ');
    await handle.apply('quit');
    const last = await handle.fetch(5000);
    expect(last).toMatchObject({ status: 'stopped', exitCode: 0, isError: false });
    expect(handle.status).toBe('stopped');
  });

  it('a non-zero exit is an error with its code', async () => {
    const handle = await spawn('fail');
    let reply = await handle.fetch(5000);
    if (reply.status !== 'stopped') reply = await handle.fetch(5000);
    expect(reply).toMatchObject({ status: 'stopped', exitCode: 3, isError: true });
    expect(text(reply)).toContain('exited with code 3');
  });

  it('apply to a stopped handle or with a non-string input is refused', async () => {
    const handle = await spawn('repl');
    await expect(handle.apply({ not: 'a string' })).rejects.toThrow(/must be a string/);
    await handle.apply('quit');
    while ((await handle.fetch(5000)).status !== 'stopped');
    await expect(handle.apply('again')).rejects.toThrow(/stopped/);
  });

  it('apply to a program that closed its stdin is refused, and the handle keeps running', async () => {
    const handle = await spawn('nostdin');
    expect(text(await handle.fetch(5000))).toBe('closed\n');
    let refused: unknown;
    for (let i = 0; i < 5 && refused === undefined; i++) {
      // The first write may still land in the pipe's buffer before the close is seen.
      await handle.apply('hello').catch((error: unknown) => (refused = error));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(String(refused)).toMatch(/stdin/);
    expect(handle.status).toBe('running');
  });

  it('abort kills the whole process group, SIGKILL after the grace period for a program that ignores SIGTERM', async () => {
    const handle = await spawn('stubborn', { graceMs: 200 });
    const pid = pidOf(text(await handle.fetch(5000)));
    expect(alive(pid)).toBe(true);
    // A fake clock for the grace timer: the program lives through the grace and dies at its end.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let reply: HandleReply | undefined;
    try {
      const aborting = handle.abort().then((answer) => (reply = answer));
      await vi.advanceTimersByTimeAsync(199);
      await new Promise((resolve) => setImmediate(resolve));
      expect(reply).toBeUndefined();
      expect(alive(pid)).toBe(true);
      // Past the grace: SIGKILL; the exit arrives as real I/O, with the drain timer between.
      while (reply === undefined) {
        await vi.advanceTimersByTimeAsync(50);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await aborting;
    } finally {
      vi.useRealTimers();
    }
    expect(reply).toMatchObject({ status: 'stopped', exitCode: null, isError: false });
    expect(text(reply!)).toContain('SIGKILL');
    expect(alive(pid)).toBe(false);
  });

  it('a program that closes stdout but keeps running stays running', async () => {
    const handle = await spawn('closed');
    const pid = pidOf(text(await handle.fetch(5000)));
    const reply = await handle.fetch(300);
    expect(reply.status).toBe('running');
    expect(alive(pid)).toBe(true);
  });

  it('a flood of output is capped by the buffer, and the reply says how much was dropped', async () => {
    const handle = await spawn('flood', { bufferBytes: 64 * 1024 });
    let seen = '';
    while (!seen.includes('end of flood')) seen += text(await handle.fetch(5000));
    expect(seen).toMatch(/\[\d+ bytes of earlier output were dropped/);
    expect(seen.length).toBeLessThan(3 * 64 * 1024);
  });

  it('fetch with wait_ms blocks until the next output, then answers at once', async () => {
    const handle = await spawn('trickle');
    expect(text(await handle.fetch(0))).toBe('(no new output)');
    // The wait is longer than the test's timeout, so only an early answer lets this pass.
    const waiting = handle.fetch(60_000);
    await handle.apply('go');
    expect(text(await waiting)).toBe('tick 1\n');
  });

  it('fetch without news waits wait_ms and no longer', async () => {
    const handle = await spawn('trickle');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let reply: HandleReply | undefined;
      const fetching = handle.fetch(150).then((answer) => (reply = answer));
      await vi.advanceTimersByTimeAsync(149);
      expect(reply).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await fetching;
      expect(reply?.status).toBe('running');
      expect(text(reply!)).toBe('(no new output)');
    } finally {
      vi.useRealTimers();
    }
  });

  it('the spawn arguments reach the program as JP_TOOL_ARGUMENTS; a missing program fails the spawn', async () => {
    const handle = await spawn('args');
    expect(text(await handle.fetch(5000))).toBe('args {"who":"test"}\n');
    await expect(
      spawnProcessHandle('x', {
        command: '/nonexistent/program',
        args: [],
        cwd: process.cwd(),
        env: process.env,
        arguments: {},
        graceMs: 100,
        bufferBytes: 1024,
        askUser: async () => undefined,
        warn: () => {},
      }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
