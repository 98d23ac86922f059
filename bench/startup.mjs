#!/usr/bin/env node
// Cold-start benchmark: `jp --version`, `jp conversation ls`, a one-file echo query that stores
// its turn (a new conversation attaching a small file), and the first query in a brand-new
// workspace timed to the first byte of its answer on stdout, against `node -e 0`, all measured in this
// run, in this environment (Node 20 reads NODE_EXTRA_CA_CERTS at every start, so only a
// same-run baseline is comparable). Prints medians and ratios; exits 1 when a ratio exceeds its
// budget unless --no-check is given.
//
//   node bench/startup.mjs [--runs N] [--conversations N] [--no-check]
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption } from './bench-args.mjs';

const args = process.argv.slice(2);
const runs = numberOption('--runs', 30);
const conversations = numberOption('--conversations', 100);
const check = !args.includes('--no-check');

const jp = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const ws = mkdtempSync(path.join(tmpdir(), 'jp-bench-'));
const queries = mkdtempSync(path.join(tmpdir(), 'jp-bench-q-'));
const env = { ...process.env, HOME: ws, XDG_CONFIG_HOME: path.join(ws, '.config') };

function time(argv, cwd = ws) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`);
  return ms;
}

/** Time from spawning `argv` to the first byte on its stdout (a pipe); fails unless it exits 0. */
function firstByte(argv, cwd) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let ms;
    let stderr = '';
    child.stdout.once('data', () => (ms = Number(process.hrtime.bigint() - start) / 1e6));
    child.stdout.resume();
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 && ms !== undefined ? resolve(ms) : reject(new Error(`${argv.join(' ')} failed (${code}): ${stderr}`))));
  });
}

/**
 * The first query a new user makes: in a fresh workspace each run (`jp init`, untimed), a new
 * conversation with the echo model attaching one file, timed to the first byte of the answer.
 * Interleaved with `node -e 0`, which it is compared with.
 */
async function measureFirstQuery() {
  const baseline = [];
  const samples = [];
  for (let i = 0; i < runs + 3; i++) {
    const fresh = mkdtempSync(path.join(tmpdir(), 'jp-bench-new-'));
    try {
      execFileSync(process.execPath, [jp, 'init', fresh], { env, stdio: 'ignore' });
      writeFileSync(path.join(fresh, 'notes.md'), '# Notes\n\nA first file for a first question.\n'.repeat(20));
      const nodeMs = time(['-e', '0']);
      const ms = await firstByte([jp, 'query', '--new', '--model', 'echo', '--attach', 'notes.md', 'hi'], fresh);
      if (i >= 3) {
        // The first three warm the page cache.
        baseline.push(nodeMs);
        samples.push(ms);
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  return [median(baseline), median(samples)];
}

/** Interleaves the commands run by run, so drift in machine load hits all of them alike. */
function measure(commands) {
  const samples = commands.map(() => []);
  for (let i = 0; i < 3; i++) commands.forEach((argv) => time(argv)); // warm the page cache
  for (let i = 0; i < runs; i++) commands.forEach((argv, k) => samples[k].push(time(argv)));
  return samples.map(median);
}

try {
  execFileSync(process.execPath, [jp, 'init', ws], { env, stdio: 'ignore' });
  for (let i = 0; i < conversations; i++) {
    execFileSync(process.execPath, [jp, '-w', ws, 'query', '--new', '-m', 'echo', `question ${i}`], { env, stdio: 'ignore' });
  }
  // The queries make conversations of their own: in a workspace apart, so the listing stays at its count.
  execFileSync(process.execPath, [jp, 'init', queries], { env, stdio: 'ignore' });
  writeFileSync(path.join(queries, 'main.rs'), 'fn main() {\n    println!("hello");\n}\n'.repeat(40));
  const [baseline, version, ls, query] = measure([
    ['-e', '0'],
    [jp, '--version'],
    [jp, '-w', ws, 'conversation', 'ls'],
    [jp, '-w', queries, 'query', '--new', '-m', 'echo', '--attach', path.join(queries, 'main.rs'), 'explain this'],
  ]);
  const [firstBaseline, first] = await measureFirstQuery();
  const rows = [
    { name: 'node -e 0', ms: baseline, ratio: 1, budget: undefined },
    { name: 'jp --version', ms: version, ratio: version / baseline, budget: 1.3 },
    { name: `jp conversation ls (${conversations} conversations)`, ms: ls, ratio: ls / baseline, budget: 2.5 },
    { name: 'jp query, one file, echo, turn stored', ms: query, ratio: query / baseline, budget: 2.5 },
    // Against the `node -e 0` measured alongside it.
    { name: 'node -e 0 (alongside the first query)', ms: firstBaseline, ratio: 1, budget: undefined },
    { name: 'first query, new workspace, to first byte', ms: first, ratio: first / firstBaseline, budget: 2.5 },
  ];
  console.log(`startup, median of ${runs} runs (Node ${process.version})`);
  for (const row of rows) {
    const budget = row.budget === undefined ? '' : `  (budget ${row.budget}×)`;
    console.log(`${row.name.padEnd(42)} ${row.ms.toFixed(1).padStart(7)} ms  ${row.ratio.toFixed(2)}×${budget}`);
  }
  const over = rows.filter((row) => row.budget !== undefined && row.ratio > row.budget);
  if (check && over.length > 0) {
    console.log(`over budget: ${over.map((row) => row.name).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(ws, { recursive: true, force: true });
  rmSync(queries, { recursive: true, force: true });
}
