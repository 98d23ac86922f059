#!/usr/bin/env node
// 16 queries on distinct conversations: all at once against one after another, divided by the
// core count. Budget: parallel ≤ 1.5 × (serial / cores). Also 8 of them on one conversation, to
// show the lock serialising them without failures.
//
//   node bench/parallel.mjs [--n 16] [--no-check]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const n = args.includes('--n') ? Number(args[args.indexOf('--n') + 1]) : 16;
const jp = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const ws = mkdtempSync(path.join(tmpdir(), 'jp-parallel-'));
const env = { ...process.env, HOME: ws, XDG_CONFIG_HOME: path.join(ws, '.config') };

function run(argv) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [jp, '-w', ws, ...argv], { env, stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('close', (code) => resolve(code));
  });
}

async function timed(fn) {
  const start = process.hrtime.bigint();
  const result = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

try {
  await run(['init', ws]);
  const query = (i) => run(['query', '--new', '-m', 'echo', `question ${i}`]);
  await query(-1); // warm the page cache
  const serial = await timed(async () => {
    for (let i = 0; i < n; i++) await query(i);
  });
  const parallel = await timed(() => Promise.all(Array.from({ length: n }, (_, i) => query(i))));
  const cores = availableParallelism();
  const ideal = serial.ms / cores;
  const ratio = parallel.ms / ideal;
  console.log(`${n} queries on distinct conversations (${cores} cores)`);
  console.log(`one after another   ${serial.ms.toFixed(0).padStart(7)} ms`);
  console.log(`all at once         ${parallel.ms.toFixed(0).padStart(7)} ms  = ${ratio.toFixed(2)} × (serial / cores)  (budget 1.5×)`);
  const first = await timed(() => run(['query', '--new', '-m', 'echo', 'shared']));
  const shared = await timed(() => Promise.all(Array.from({ length: 8 }, (_, i) => run(['query', `shared ${i}`]))));
  const codes = shared.result.reduce((acc, code) => ({ ...acc, [code]: (acc[code] ?? 0) + 1 }), {});
  console.log(`8 at once on one conversation: ${shared.ms.toFixed(0)} ms, exit codes ${JSON.stringify(codes)} (one query alone: ${first.ms.toFixed(0)} ms)`);
  if (ratio > 1.5 && !args.includes('--no-check')) process.exitCode = 1;
} finally {
  rmSync(ws, { recursive: true, force: true });
}
