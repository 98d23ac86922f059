import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicErrorResponse, anthropicTextStream, createWireServer, cutStream, type WireServer } from '@jp/test-server';
import { expectOneLineError, makeSandbox, readEvents, runJp, snapshotTree } from './helpers/run-jp.ts';

// Provider failures through the binary: the right exit code, one line, and a conversation that
// is exactly as it was before the failed query.
describe('provider errors', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  const jpDir = path.join(ws, '.jp');
  let server: WireServer;
  let id = '';
  const keyed = { ...env, ANTHROPIC_API_KEY: 'sk-test' };
  const jp = (args: string[], environment: NodeJS.ProcessEnv = keyed) =>
    runJp(['-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, ...args], { cwd: ws, env: environment });

  beforeAll(async () => {
    server = await createWireServer();
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    server.enqueue(anthropicTextStream('first answer'));
    const first = await jp(['-F', 'json', 'query', '--new', '-m', 'anthropic/claude-sonnet-4-6', '--attach', 'a.txt', 'hello']);
    expect(first.code, first.stderr).toBe(0);
    id = JSON.parse(first.stdout.trim().split('\n').at(-1)!).conversation;
  });

  afterAll(async () => {
    await server?.close();
  });

  it('a missing key exits 3 naming the variable, before anything is resolved or sent', async () => {
    const before = snapshotTree(jpDir);
    const sent = server.requests.length;
    const { ANTHROPIC_API_KEY: _drop, ...withoutKey } = keyed;
    const result = await jp(['query', '--attach', 'missing.txt', 'x'], withoutKey);
    expectOneLineError(result, 3, /ANTHROPIC_API_KEY is not set/);
    expect(server.requests.length).toBe(sent);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('a rejected key exits 3 and leaves the conversation as it was', async () => {
    const before = snapshotTree(jpDir);
    server.enqueue(anthropicErrorResponse(401, { type: 'authentication_error', message: 'invalid x-api-key' }));
    const result = await jp(['query', 'x']);
    expectOneLineError(result, 3, /key/i);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('429 is retried as Retry-After says, then the answer is stored', async () => {
    server.enqueue(anthropicErrorResponse(429, { type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '0' } }));
    server.enqueue(anthropicTextStream('after the wait'));
    const sent = server.requests.length;
    const result = await jp(['query', 'try again']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('after the wait\n');
    // Not a terminal: the retry is not told (RFD 010); -v tells it in a line, -F json on stdout.
    expect(result.stderr).toBe('');
    expect(server.requests.length - sent).toBe(2);
    expect(readEvents(ws, id).filter((e) => e.type === 'chat_response').at(-1)!.message).toBe('after the wait');

    server.enqueue(anthropicErrorResponse(429, { type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '0' } }));
    server.enqueue(anthropicTextStream('told'));
    const verbose = await jp(['-v', 'query', '--no-persist', 'x']);
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stderr).toMatch(/^jp: .*retrying in 0\.0 s \(1 of 3\)\n$/);

    server.enqueue(anthropicErrorResponse(429, { type: 'rate_limit_error', message: 'slow down', headers: { 'retry-after': '0' } }));
    server.enqueue(anthropicTextStream('as json'));
    const json = await jp(['-F', 'json', 'query', '--no-persist', 'x']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    const first = JSON.parse(json.stdout.split('\n')[0]!);
    expect(first).toMatchObject({ type: 'retry', attempt: 1, retries: 3, delayMs: 0 });
    expect(first.message).toMatch(/slow down|rate/i);
  });

  it('5xx beyond max_retries exits 3 and stores nothing', async () => {
    const before = snapshotTree(jpDir);
    for (let i = 0; i < 2; i++) server.enqueue(anthropicErrorResponse(529, { type: 'overloaded_error', message: 'overloaded', headers: { 'retry-after': '0' } }));
    const result = await jp(['-c', 'assistant.request.max_retries=1', 'query', 'x']);
    expectOneLineError(result, 3, /gave up after 1 retry/);
    expect(snapshotTree(jpDir)).toEqual(before);
  });

  it('a stream that breaks mid-answer exits 3; the conversation loads and takes the next query', async () => {
    const before = snapshotTree(jpDir);
    server.enqueue(cutStream(anthropicTextStream(['part one ', 'part two ', 'part three']), 4, 'destroy'));
    const broken = await jp(['query', 'x']);
    expect(broken.code, broken.stderr).toBe(3);
    expect(snapshotTree(jpDir)).toEqual(before);

    server.enqueue(anthropicTextStream('recovered'));
    const next = await jp(['query', 'again']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).toBe('recovered\n');
    const show = await jp(['-F', 'json', 'conversation', 'show', id]);
    expect(show.code, show.stderr).toBe(0);
    const messages = JSON.parse(show.stdout).events.filter((e: { type: string }) => e.type === 'chat_response').map((e: { message: string }) => e.message);
    expect(messages).toEqual(['first answer', 'after the wait', 'recovered']);
  });
});

// A server on this machine that is not running refuses at once; retrying only makes the user
// wait, so jp fails on the first attempt and says what to start.
describe('a local provider server that is not running', () => {
  const { root, env } = makeSandbox();
  const ws = path.join(root, 'project');
  let baseUrl = '';

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    expect((await runJp(['init'], { cwd: ws, env })).code).toBe(0);
    // A port nothing listens on: bind one, then close it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    baseUrl = `http://127.0.0.1:${port}/v1`;
  });

  const jp = (args: string[]) => runJp(['-c', `providers.ollama.base_url=${JSON.stringify(baseUrl)}`, ...args], { cwd: ws, env });

  it('exits 3 on the first refusal, naming the provider, the address and what to do', async () => {
    const before = snapshotTree(path.join(ws, '.jp'));
    const result = await jp(['query', '--new', '-m', 'ollama/llama3', 'hi']);
    expectOneLineError(result, 3, /^jp: cannot connect to ollama at http:\/\/127\.0\.0\.1:\d+\/v1 \(connection refused\); start the server \(ollama serve\) or set providers\.ollama\.base_url$/);
    expect(result.stderr).toContain(baseUrl);
    expect(result.stderr).not.toMatch(/gave up after/);
    expect(snapshotTree(path.join(ws, '.jp'))).toEqual(before);
  });

  it('tells of no retry, with -v or with -F json: one attempt was made', async () => {
    const verbose = await jp(['-v', 'query', '--new', '-m', 'ollama/llama3', 'hi']);
    expect(verbose.code, verbose.stderr).toBe(3);
    expect(verbose.stderr).not.toMatch(/retrying/);
    expect(verbose.stderr).toMatch(/cannot connect to ollama at .* \(connection refused\)/);

    const json = await jp(['-F', 'json', 'query', '--new', '-m', 'ollama/llama3', 'hi']);
    expect(json.code, json.stderr).toBe(3);
    expect(json.stdout).not.toMatch(/"type":"retry"/);
    expect(JSON.parse(json.stderr.trim()).error).toMatchObject({ code: 'connection_refused', exitCode: 3 });
  });
});
