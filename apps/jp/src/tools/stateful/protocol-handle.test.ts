import { existsSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ContentBlock, InputRequest } from '@jp/core';
import type { HandleReply, SpawnOptions, StatefulHandle } from './handle.ts';
import { spawnProtocolHandle } from './protocol-handle.ts';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__', 'stage-tool.mjs');
const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-protocol-')));

function options(args: Record<string, unknown>, overrides: Partial<SpawnOptions> = {}) {
  const warnings: string[] = [];
  const asked: InputRequest[] = [];
  const spawnOptions: SpawnOptions = {
    command: process.execPath,
    args: [fixture],
    cwd: root,
    env: process.env,
    arguments: args,
    graceMs: 3000,
    bufferBytes: 1024 * 1024,
    askUser: async (question) => {
      asked.push(question);
      return 'n';
    },
    warn: (message) => void warnings.push(message),
    ...overrides,
  };
  return { spawnOptions, warnings, asked };
}

const texts = (content: ContentBlock[]) => content.flatMap((block) => (block.type === 'text' ? [block.text] : []));

/** Fetches until the handle reports `stopped` (or the rounds run out), keeping every reply, `before` first. */
async function untilStopped(handle: StatefulHandle, before: HandleReply[] = [], rounds = 20): Promise<HandleReply[]> {
  const replies = [...before];
  for (let round = 0; round < rounds && replies.at(-1)?.status !== 'stopped'; round++) replies.push(await handle.fetch(5000));
  return replies;
}

/** Alive and not a zombie (a container's init may not reap orphans). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && alive(pid); i++) await sleep(50);
  return !alive(pid);
}

describe('spawnProtocolHandle', { timeout: 30_000 }, () => {
  it('sends spawn, relays a waiting question to the model, sends its answer with the question id, and answers user questions itself', async () => {
    const { spawnOptions, asked, warnings } = options({ scenario: 'stage' });
    const handle = await spawnProtocolHandle('stage-1', spawnOptions);
    expect(handle.id).toBe('stage-1');

    const first = await handle.fetch(5000);
    expect(first.status).toBe('running');
    expect(texts(first.content).join('\n')).toMatch(/^ready; pid \d+$/);

    // Not waiting yet: the input goes to the tool without a question id, and apply returns its reply.
    const waiting = await handle.apply('start');
    expect(waiting.status).toBe('waiting');
    expect(handle.status).toBe('waiting');
    expect(waiting.content).toEqual([
      { type: 'text', text: 'hunk 1: +a' },
      { type: 'question', question: { id: 'hunk_1', text: 'Stage hunk 1?', schema: { type: 'string', enum: ['y', 'n'] }, default: 'y' } },
    ]);

    // An answer outside the question's schema is not sent; the question stays open.
    const wrong = await handle.apply('maybe');
    expect(wrong.isError).toBe(true);
    expect(texts(wrong.content).join('\n')).toContain('does not fit its schema');
    expect(handle.status).toBe('waiting');

    // The model's answer; the next question is the user's, answered through askUser.
    const replies = await untilStopped(handle, [await handle.apply('y')]);
    const last = replies.at(-1)!;
    expect(last.status).toBe('stopped');
    expect(last.exitCode).toBe(0);
    expect(last.isError).toBe(false);
    const all = replies.flatMap((reply) => reply.content);
    expect(texts(all)).toContain('hunk 2: +b');
    expect(all.some((block) => block.type === 'question')).toBe(false);
    expect(asked.map((question) => question.id)).toEqual(['hunk_2']);
    expect(replies.every((reply) => reply.status !== 'waiting')).toBe(true);

    const commands = JSON.parse(texts(last.content).find((value) => value.startsWith('commands: '))!.slice('commands: '.length));
    expect(commands).toEqual([
      { action: 'spawn', arguments: { scenario: 'stage' } },
      { action: 'apply', input: 'start' },
      { action: 'apply', id: 'hunk_1', input: 'y' },
      { action: 'apply', id: 'hunk_2', input: 'n' },
    ]);
    expect(warnings).toEqual([]);

    const after = await handle.apply('again');
    expect(after.isError).toBe(true);
    expect(texts(after.content).join('\n')).toContain('has stopped');
  });

  it('answers the questions of one response in order, one apply each', async () => {
    const { spawnOptions } = options({ scenario: 'two-questions' });
    const handle = await spawnProtocolHandle('two', spawnOptions);
    const waiting = await handle.fetch(5000);
    expect(waiting.status).toBe('waiting');
    expect(waiting.content.map((block) => (block.type === 'question' ? block.question.id : block.type))).toEqual(['first', 'text', 'second']);
    const afterFirst = await handle.apply('y');
    expect(afterFirst).toEqual({ status: 'waiting', content: [], isError: false });
    const last = await handle.apply('n');
    expect(last).toMatchObject({ status: 'stopped', exitCode: 0, isError: false });
    expect(texts(last.content)).toEqual([
      `commands: ${JSON.stringify([
        { action: 'apply', id: 'first', input: 'y' },
        { action: 'apply', id: 'second', input: 'n' },
      ])}`,
    ]);
  });

  it('stops the tool when a question for the user gets no answer', async () => {
    const { spawnOptions } = options(
      { scenario: 'stage' },
      {
        askUser: async (question) => {
          throw new Error(`question ${question.id} needs an answer, but there is no terminal`);
        },
      },
    );
    const handle = await spawnProtocolHandle('stage-2', spawnOptions);
    await handle.fetch(5000);
    await handle.apply('start');
    const replies = await untilStopped(handle, [await handle.apply('y')]);
    const last = replies.at(-1)!;
    expect(last.status).toBe('stopped');
    expect(replies.some((reply) => reply.isError)).toBe(true);
    expect(texts(replies.flatMap((reply) => reply.content)).join('\n')).toContain('question hunk_2 needs an answer, but there is no terminal');
  });

  it('skips malformed lines with a warning and keeps reading', async () => {
    const { spawnOptions, warnings } = options({ scenario: 'malformed' }, { graceMs: 200 });
    const handle = await spawnProtocolHandle('bad', spawnOptions);
    const seen: string[] = [];
    for (let i = 0; i < 10 && !seen.includes('after the bad lines'); i++) seen.push(...texts((await handle.fetch(5000)).content));
    expect(seen).toEqual(['good block', 'after the bad lines']);
    expect(handle.status).toBe('running');
    expect(warnings).toEqual([
      'handle bad: output line 1 was skipped: not a JSON response with a "content" array',
      expect.stringMatching(/^handle bad: content block 0 \(text\) is malformed and was skipped/),
      expect.stringMatching(/^handle bad: output line 3 was skipped: _meta\["computer.jp\/status"\] must be .*"paused"/),
      'handle bad: output line 4 was skipped: not a JSON response with a "content" array',
    ]);
    await handle.abort();
  });

  it('reports an exit without a "stopped" response with its code and stderr', async () => {
    const { spawnOptions } = options({ scenario: 'exit' });
    const handle = await spawnProtocolHandle('exit', spawnOptions);
    const replies = await untilStopped(handle);
    const last = replies.at(-1)!;
    expect(last).toMatchObject({ status: 'stopped', exitCode: 3, isError: true });
    const all = texts(replies.flatMap((reply) => reply.content));
    expect(all[0]).toBe('starting');
    expect(all.at(-1)).toBe('the tool exited with 3 without a "stopped" response: fatal: config missing');
    // Once reported, the exit is not repeated, and a fetch on a finished handle does not wait.
    // 60 s is past the test's timeout: a fetch that waited would fail the test.
    expect(await handle.fetch(60_000)).toEqual({ status: 'stopped', content: [], isError: false, exitCode: 3 });
  });

  it('stays running when the tool closes stdout but lives on, until abort kills it', async () => {
    const { spawnOptions } = options({ scenario: 'close-stdout' }, { graceMs: 200 });
    const handle = await spawnProtocolHandle('quiet', spawnOptions);
    const first = await handle.fetch(5000);
    const pid = Number(/pid (\d+)/.exec(texts(first.content).join(''))![1]);
    const later = await handle.fetch(300);
    expect(later).toEqual({ status: 'running', content: [], isError: false });
    expect(alive(pid)).toBe(true);
    const final = await handle.abort();
    expect(final.status).toBe('stopped');
    expect(await gone(pid)).toBe(true);
  });

  it('abort asks the tool to stop, and it answers "stopped"', async () => {
    const { spawnOptions } = options({ scenario: 'stage' });
    const handle = await spawnProtocolHandle('polite', spawnOptions);
    const pid = Number(/pid (\d+)/.exec(texts((await handle.fetch(5000)).content).join(''))![1]);
    const final = await handle.abort();
    expect(final).toEqual({ status: 'stopped', content: [{ type: 'text', text: 'aborted by request' }], isError: false, exitCode: 0 });
    expect(await gone(pid)).toBe(true);
    // Abort is idempotent.
    expect((await handle.abort()).status).toBe('stopped');
  });

  it('abort kills the process group of a tool that ignores the abort command and SIGTERM', async () => {
    const { spawnOptions } = options({ scenario: 'stubborn' }, { graceMs: 200 });
    const handle = await spawnProtocolHandle('stubborn', spawnOptions);
    const match = /pid (\d+) child (\d+)/.exec(texts((await handle.fetch(5000)).content).join(''))!;
    const [pid, child] = [Number(match[1]), Number(match[2])];
    expect(alive(pid) && alive(child)).toBe(true);
    const final = await handle.abort();
    expect(final).toMatchObject({ status: 'stopped', exitCode: null, isError: false });
    expect(texts(final.content)).toEqual(['(aborted: SIGKILL)']);
    expect(await gone(pid)).toBe(true);
    expect(await gone(child)).toBe(true);
  });

  it('fetch with a wait returns as soon as a response arrives', async () => {
    const { spawnOptions } = options({ scenario: 'slow', delay_ms: 2_500 }, { graceMs: 200 });
    // The response comes after start() has stopped waiting for one (2 s), so only fetch's own wait sees it.
    const handle = await spawnProtocolHandle('slow', spawnOptions);
    // The wait is past the test's timeout; how soon it returns is bench/stateful-protocol-latency.ts.
    const reply = await handle.fetch(60_000);
    expect(texts(reply.content)).toEqual(['late output']);
    // Nothing new: fetch(0) answers at once with no content.
    expect(await handle.fetch(0)).toEqual({ status: 'running', content: [], isError: false });
    await handle.abort();
  });

  it('keeps at most bufferBytes of responses and says how many were dropped', async () => {
    const marker = path.join(root, `flood-${process.pid}`);
    const count = 300;
    const bufferBytes = 16 * 1024;
    const { spawnOptions } = options({ scenario: 'flood', count, marker }, { bufferBytes });
    const handle = await spawnProtocolHandle('flood', spawnOptions);
    for (let i = 0; i < 100 && !existsSync(marker); i++) await sleep(50);
    expect(existsSync(marker)).toBe(true);
    const replies = await untilStopped(handle, [], 400);
    expect(replies.at(-1)!.status).toBe('stopped');
    let dropped = 0;
    let kept = 0;
    for (const reply of replies) {
      for (const value of texts(reply.content)) {
        const note = /^\((\d+) earlier responses, \d+ bytes, were dropped/.exec(value);
        if (note) dropped += Number(note[1]);
        else if (value.startsWith('line ')) kept += 1;
      }
      expect(Buffer.byteLength(JSON.stringify(reply.content))).toBeLessThan(bufferBytes + 2048);
    }
    expect(dropped).toBeGreaterThan(0);
    expect(kept + dropped).toBe(count);
    expect(texts(replies.at(-1)!.content)).toContain('flood done');
  });

  it('rejects when the program cannot be started', async () => {
    const { spawnOptions } = options({}, { command: path.join(root, 'no-such-tool') });
    await expect(spawnProtocolHandle('missing', spawnOptions)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
