import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicErrorResponse, anthropicTextStream, createWireServer, type WireServer } from '@jp/test-server';
import { runOnPty } from './helpers/pty.ts';
import { expectOneLineError, makeSandbox, runJp, snapshotTree } from './helpers/run-jp.ts';

// Issue W, failures that were slow and silent: a host that does not resolve fails at once (one
// line, exit 3, the host named, no retry); a wait for a conversation's lock says once, on a
// terminal, who holds it and since when, and --lock-timeout sets how long; a retry after a 429 says
// which attempt it is on a terminal.

const RESOLVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'failing-resolver.mjs');
const { root, env } = makeSandbox('jp-failures-e2e-');
const ws = path.join(root, 'project');
const jpDir = path.join(ws, '.jp');
const jp = (args: string[], environment: NodeJS.ProcessEnv = env) => runJp(args, { cwd: ws, env: environment });
let id = '';

beforeAll(async () => {
  mkdirSync(ws, { recursive: true });
  expect((await jp(['init'])).code).toBe(0);
  const made = await jp(['-F', 'json', 'query', '--new', '-m', 'echo', 'first']);
  expect(made.code, made.stderr).toBe(0);
  id = JSON.parse(made.stdout.trim().split('\n').at(-1)!).conversation;
});

describe('a host that does not resolve', { timeout: 60_000 }, () => {
  it('is not retried: one lookup, one line naming the host, exit 3, nothing stored', async () => {
    const log = path.join(root, 'lookups.log');
    const resolverEnv = { ...env, ANTHROPIC_API_KEY: 'sk-test', NODE_OPTIONS: `--import ${RESOLVER}`, JP_TEST_RESOLVER_LOG: log };
    const before = snapshotTree(jpDir);
    // The model is described, so that the one line is the error (an unknown model is warned about).
    const described = ['-c', 'providers.anthropic.models."claude-test".max_output_tokens=1000', '-c', 'providers.anthropic.base_url="https://api.jp-test.invalid"'];
    const result = await jp([...described, 'query', '--id', id, '-m', 'anthropic/claude-test', 'x'], resolverEnv);
    expectOneLineError(result, 3, /^jp: cannot connect to anthropic: api\.jp-test\.invalid does not resolve \(DNS: no such host\); check the network, or providers\.anthropic\.base_url$/);
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['api.jp-test.invalid']);
    expect(snapshotTree(jpDir)).toEqual(before);

    const json = await jp(['-F', 'json', ...described, 'query', '--id', id, '-m', 'anthropic/claude-test', 'x'], resolverEnv);
    expect(json.code).toBe(3);
    expect(json.stdout).not.toContain('"type":"retry"');
    expect(JSON.parse(json.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ code: 'host_not_found', exitCode: 3 });
  });
});

describe("a conversation's lock held by a live process", { timeout: 60_000 }, () => {
  let holder: ChildProcess;
  const lockFile = () => path.join(jpDir, 'conversations', id, 'lock');

  beforeAll(async () => {
    // A live process that is not jp holds the lock, as the lock file names it.
    holder = spawn('sleep', ['300'], { stdio: 'ignore' });
    await new Promise((resolve) => holder.once('spawn', resolve));
    writeFileSync(lockFile(), JSON.stringify({ pid: holder.pid, host: hostname(), since: new Date().toISOString() }));
  });

  afterAll(() => {
    holder?.kill();
  });

  it('on a terminal, the wait says once who holds it and since when; --lock-timeout is how long', async () => {
    const result = await runOnPty(root, ['--lock-timeout', '2', 'query', '--id', id, '-m', 'echo', 'x'], { cwd: ws, env });
    expect(result.code, result.terminal).toBe(5);
    const waiting = result.terminal.split(/\r?\n/).filter((line) => line.includes('waiting for conversation'));
    expect(waiting, result.terminal).toHaveLength(1);
    expect(waiting[0]).toMatch(new RegExp(`jp: waiting for conversation ${id}: process ${holder.pid} \\(since \\d\\d:\\d\\d:\\d\\d\\) is using it; waiting up to 2 s \\(--lock-timeout SECS\\)`));
    expect(result.terminal).toMatch(new RegExp(`conversation ${id} is locked by process ${holder.pid} \\(waited 2 s\\); try again when it finishes, or wait longer with --lock-timeout SECS`));
    expect(existsSync(lockFile())).toBe(true);
  });

  it('with --lock-timeout 0 there is no wait to tell; without a terminal the error is the one line', async () => {
    const now = await runOnPty(root, ['--lock-timeout', '0', 'query', '--id', id, '-m', 'echo', 'x'], { cwd: ws, env });
    expect(now.code, now.terminal).toBe(5);
    expect(now.terminal).not.toContain('waiting for conversation');
    expectOneLineError(await jp(['--lock-timeout', '1.5', 'query', '--id', id, '-m', 'echo', 'x']), 5, /is locked by process \d+ \(waited 1\.5 s\)/);
    expectOneLineError(await jp(['--lock-timeout', 'soon', 'query', '--id', id, '-m', 'echo', 'x']), 2, /--lock-timeout.*expected seconds, e\.g\. --lock-timeout 30/);
  });
});

describe('a retry after a 429, on a terminal', { timeout: 60_000 }, () => {
  let server: WireServer;
  beforeAll(async () => {
    server = await createWireServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('says which attempt it is', async () => {
    server.enqueue(anthropicErrorResponse(429, { type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '0' } }));
    server.enqueue(anthropicErrorResponse(429, { type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '0' } }));
    server.enqueue(anthropicTextStream('answered'));
    const result = await runOnPty(root, ['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, '-c', 'providers.anthropic.models."claude-test".max_output_tokens=1000', 'query', '--no-persist', '-m', 'anthropic/claude-test', 'x'], {
      cwd: ws,
      env: { ...env, ANTHROPIC_API_KEY: 'sk-test' },
    });
    expect(result.code, result.terminal).toBe(0);
    expect(result.terminal).toMatch(/retrying in 0\.0 s \(1 of 3\)/);
    expect(result.terminal).toMatch(/retrying in 0\.0 s \(2 of 3\)/);
    expect(result.terminal).toContain('answered');
  });
});
