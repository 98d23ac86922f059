#!/usr/bin/env node
// Issue W, RFD 032: what the user workspace costs. Times, interleaved run by run against
// `node -e 0`, `jp --version` and `jp conversation ls` in a project of N conversations for a build
// from before the change (BASE) and this one, and `jp conversation ls` of the same conversations in
// the user workspace ($XDG_DATA_HOME/jp, run from a directory with no .jp/ above it).
//
//   node bench/user-workspace.mjs --base /path/to/old/jp.js [--runs N] [--conversations N]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption, option } from './bench-args.mjs';
import { writeConversation } from './conversation-fixture.mjs';

const runs = numberOption('--runs', 30);
const count = numberOption('--conversations', 100);
const base = option('--base', undefined);
if (base === undefined) {
  console.error('usage: node bench/user-workspace.mjs --base /path/to/old/jp.js [--runs N] [--conversations N]');
  process.exit(2);
}
const jp = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const root = mkdtempSync(path.join(tmpdir(), 'jp-bench-userws-'));
const project = path.join(root, 'project');
const data = path.join(root, 'data');
const outside = path.join(root, 'outside');
const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config'), XDG_DATA_HOME: data, NO_COLOR: '1' };

function time(argv, cwd) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed: ${result.stderr}`);
  return ms;
}

try {
  mkdirSync(outside, { recursive: true });
  for (let i = 0; i < count; i++) {
    writeConversation(project, { id: `0mx${String(i).padStart(8, '0')}-bench`, title: `question ${i}`, turns: [{ query: `question ${i}`, answer: 'answer', usage: { inputTokens: 10, outputTokens: 2 } }] });
  }
  mkdirSync(path.join(data, 'jp'), { recursive: true });
  cpSync(path.join(project, '.jp'), path.join(data, 'jp', '.jp'), { recursive: true });
  const commands = [
    ['node -e 0', ['-e', '0'], outside],
    ['base: jp --version', [base, '--version'], outside],
    ['this: jp --version', [jp, '--version'], outside],
    [`base: jp c ls (project, ${count})`, [base, 'conversation', 'ls'], project],
    [`this: jp c ls (project, ${count})`, [jp, 'conversation', 'ls'], project],
    [`this: jp c ls (user workspace, ${count})`, [jp, 'conversation', 'ls'], outside],
  ];
  const samples = commands.map(() => []);
  for (let i = 0; i < 3; i++) for (const [, argv, cwd] of commands) time(argv, cwd);
  for (let i = 0; i < runs; i++) commands.forEach(([, argv, cwd], k) => samples[k].push(time(argv, cwd)));
  const medians = samples.map(median);
  console.log(`user workspace, median of ${runs} runs (Node ${process.version})`);
  commands.forEach(([name], k) => console.log(`${name.padEnd(42)} ${medians[k].toFixed(1).padStart(7)} ms  ${(medians[k] / medians[0]).toFixed(2)}×`));
  console.log(`--version: this − base ${(medians[2] - medians[1]).toFixed(1)} ms; c ls (project): this − base ${(medians[4] - medians[3]).toFixed(1)} ms; c ls user − project ${(medians[5] - medians[4]).toFixed(1)} ms`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
