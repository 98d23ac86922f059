// The speed budgets that used to be wall-clock asserts in unit tests (issue T). The tests now
// prove the behaviour by events (a dropped connection, a fake clock); how fast it happens is
// measured here, each case as a ratio against a baseline timed in this same process.
//
//   node --import tsx bench/test-budgets.ts [rounds]
//
// A ratio near 1 means "as fast as the baseline"; the budget column is the old test's bound,
// translated into a ratio.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { httpContext, startLocalHttpServer } from '../packages/attachments/src/http/__fixtures__/local-http-server.ts';
import { createHttpHandler } from '../packages/attachments/src/http/http-handler.ts';
import { acquireLock } from '../apps/jp/src/store/conversation-lock.ts';
import { spawnProcessHandle } from '../apps/jp/src/tools/stateful/process-handle.ts';

const rounds = Number(process.argv[2] ?? 5);
const here = path.dirname(fileURLToPath(import.meta.url));
const REPL = path.join(here, '../apps/jp/src/tools/stateful/__fixtures__/repl.mjs');

const server = await startLocalHttpServer((req, res) => {
  switch (req.url) {
    case '/hang':
      return; // never answers
    case '/gone':
      res.writeHead(410).end();
      return;
    case '/small':
      res.writeHead(200, { 'content-type': 'text/plain' }).end('small');
      return;
    case '/big-declared':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(100 * 1024 * 1024) });
      res.write('only a little');
      return;
    default:
      res.writeHead(404).end();
  }
});
const handler = createHttpHandler({ userAgent: 'jp-bench' });
const settle = (promise: Promise<unknown>) => promise.then(() => undefined, () => undefined);

/** Median milliseconds of `rounds` runs of `run`. */
async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const rows: [string, number, number, string][] = [];
async function row(name: string, measured: () => Promise<unknown>, baseline: () => Promise<unknown>, budget: string): Promise<void> {
  const base = await median(baseline);
  const value = await median(measured);
  rows.push([name, value, base, budget]);
}

await row(
  'http: failure with a hanging sibling vs the failure alone',
  () => settle(handler.resolve([server.url('/hang'), server.url('/gone')], httpContext())),
  () => settle(handler.resolve([server.url('/gone')], httpContext())),
  'was < 1.5 s absolute',
);
await row(
  'http: Content-Length refusal vs a small fetch',
  () => settle(handler.resolve([server.url('/big-declared')], httpContext({ maxBytes: 1024 * 1024 }))),
  () => settle(handler.resolve([server.url('/small')], httpContext())),
  'was < 2 s absolute',
);
await row(
  'http: 300 ms timeout vs sleep(300)',
  () => settle(handler.resolve([server.url('/hang')], httpContext({ timeoutMs: 300 }))),
  () => sleep(300),
  'was 0.83–10',
);
await server.close();

const lockDir = mkdtempSync(path.join(tmpdir(), 'jp-bench-lock-'));
const release = await acquireLock(path.join(lockDir, 'lock'), { timeoutMs: 1000, what: 'bench' });
await row(
  'lock: 200 ms wait for a held lock vs sleep(200)',
  () => settle(acquireLock(path.join(lockDir, 'lock'), { timeoutMs: 200, pollMs: 20, what: 'bench' })),
  () => sleep(200),
  'was ≥ 0.95',
);
release();

const spawn = (mode: string, graceMs = 2000) =>
  spawnProcessHandle('bench', {
    command: process.execPath,
    args: [REPL, mode],
    cwd: process.cwd(),
    env: process.env,
    arguments: {},
    graceMs,
    bufferBytes: 1024 * 1024,
    askUser: async () => undefined,
    warn: () => {},
  });
const trickle = await spawn('trickle');
await row('process handle: fetch(150) without news vs sleep(150)', () => trickle.fetch(150), () => sleep(150), 'was 0.93–13');
await trickle.abort();
// Each round spawns its own stubborn program; the spawn is timed in both columns.
await row(
  'process handle: abort of a SIGTERM-ignoring program (grace 200 ms) vs spawn + sleep(200)',
  async () => {
    const stubborn = await spawn('stubborn', 200);
    await stubborn.fetch(5000);
    await stubborn.abort();
  },
  async () => {
    const quiet = await spawn('stubborn', 200);
    await quiet.fetch(5000);
    await sleep(200);
    void quiet.abort();
  },
  'was ≥ 0.75 (of the grace)',
);

console.log(`median of ${rounds} rounds each; ratio = measured / baseline`);
for (const [name, value, base, budget] of rows) {
  console.log(`${name.padEnd(90)} ${value.toFixed(1).padStart(8)} ms / ${base.toFixed(1).padStart(8)} ms = ${(value / base).toFixed(2).padStart(6)}  (${budget})`);
}
