import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/wire-server.mjs', import.meta.url));
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Spawns the standalone entry with plain `node` (no TS loader) and reads its `{"url"}` line. */
async function spawnServer(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`wire-server exited with ${code}`)));
  });
  const { url } = JSON.parse(first) as { url: string };
  return { child, url };
}

async function postMessages(url: string, body: unknown): Promise<Response> {
  return fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

const textOf = (sse: string) =>
  sse
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { delta?: { text?: string } })
    .map((event) => event.delta?.text ?? '')
    .join('');

describe('bin/wire-server.mjs', () => {
  it('prints its url, answers "ok <n>" streams and records every body as one JSON line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wire-server-'));
    dirs.push(dir);
    const record = join(dir, 'requests.jsonl');
    const { url } = await spawnServer(['--record', record]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const first = await postMessages(url, { model: 'm', messages: [{ role: 'user', content: 'one' }] });
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const firstText = await first.text();
    expect(firstText.startsWith('event: message_start\n')).toBe(true);
    expect(firstText.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(textOf(firstText)).toBe('ok 1');
    expect(textOf(await (await postMessages(url, { n: 2 })).text())).toBe('ok 2');

    const lines = readFileSync(record, 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([{ model: 'm', messages: [{ role: 'user', content: 'one' }] }, { n: 2 }]);
  });

  it('answers other paths with a 404 and, with --error, every message request with that status', async () => {
    const { url } = await spawnServer(['--error', '401']);

    expect((await fetch(`${url}/v1/models`)).status).toBe(404);
    const rejected = await postMessages(url, {});
    expect(rejected.status).toBe(401);
    expect(await rejected.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });

  it('exits 0 on SIGTERM, and on stdin close with --exit-on-stdin-close', async () => {
    const { child: signalled } = await spawnServer([]);
    const signalledExit = new Promise((resolve) => signalled.once('exit', resolve));
    signalled.kill('SIGTERM');
    expect(await signalledExit).toBe(0);

    const { child: piped } = await spawnServer(['--exit-on-stdin-close']);
    const pipedExit = new Promise((resolve) => piped.once('exit', resolve));
    piped.stdin?.end();
    expect(await pipedExit).toBe(0);
  });

  it('rejects a bad flag value with exit code 2', async () => {
    const child = spawn(process.execPath, [bin, '--port', 'abc'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--port needs a non-negative integer');
  });
});
