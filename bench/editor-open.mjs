#!/usr/bin/env node
// How soon the editor opens (issue N): from spawning `jp q` with no text on a terminal to the
// editor's exec, against the whole of `jp --version`, both under `script` (a real pty) in this run.
// The editor is a shell script that records the wall-clock time it started and writes nothing, so
// jp then aborts on the empty query. Measured for a new conversation and for one with 20 turns.
// Budget: 1.3× `jp --version`. Exits 1 over budget unless --no-check.
//
//   node bench/editor-open.mjs [--runs N] [--no-check]
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption } from './bench-args.mjs';

const runs = numberOption('--runs', 15);
const check = !process.argv.includes('--no-check');
const jp = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const ws = mkdtempSync(path.join(tmpdir(), 'jp-bench-editor-'));
const stamp = path.join(ws, 'opened');
const editor = path.join(ws, 'editor.sh');
writeFileSync(editor, `#!/bin/sh\ndate +%s%N > ${stamp}\n`);
chmodSync(editor, 0o755);
const env = { ...process.env, HOME: ws, XDG_CONFIG_HOME: path.join(ws, '.config'), EDITOR: editor, VISUAL: '', TERM: 'xterm' };
const quote = (word) => `'${word.replace(/'/g, `'\\''`)}'`;
const onPty = (argv) => ['-qec', argv.map(quote).join(' '), '/dev/null'];
const wallMs = () => performance.timeOrigin + performance.now();

spawnSync(process.execPath, [jp, 'init', '--no-gitignore'], { cwd: ws, env, stdio: 'ignore' });
for (let turn = 0; turn < 20; turn += 1) {
  spawnSync(process.execPath, [jp, 'query', ...(turn === 0 ? ['-n'] : []), '-m', 'echo', `turn ${turn}`], { cwd: ws, env, stdio: 'ignore' });
}
// The active conversation's pointer moved under .jp/local/ (RFD 029).
const id = readFileSync(path.join(ws, '.jp', 'local', 'active'), 'utf8').trim();

function version() {
  const start = wallMs();
  const run = spawnSync('script', onPty([process.execPath, jp, '--version']), { cwd: ws, env, stdio: 'ignore' });
  if (run.status !== 0) throw new Error('jp --version failed');
  return wallMs() - start;
}

function editorOpens(args) {
  rmSync(stamp, { force: true });
  const start = wallMs();
  spawnSync('script', onPty([process.execPath, jp, 'query', ...args]), { cwd: ws, env, stdio: 'ignore' });
  return Number(BigInt(readFileSync(stamp, 'utf8').trim()) / 1000n) / 1000 - start;
}

/** `jp q --explain` on a pty: the same reading of config and history, then the request printed. */
function explain() {
  const start = wallMs();
  spawnSync('script', onPty([process.execPath, jp, 'query', '-n', '-m', 'echo', '--explain', 'x']), { cwd: ws, env, stdio: 'ignore' });
  return wallMs() - start;
}

const samples = { version: [], fresh: [], turns: [], explain: [] };
for (let i = 0; i < runs; i += 1) {
  samples.version.push(version());
  samples.explain.push(explain());
  samples.fresh.push(editorOpens(['-n', '-m', 'echo']));
  samples.turns.push(editorOpens(['--id', id]));
}
const base = median(samples.version);
const rows = [
  ['jp --version (whole run)', base],
  ['editor opens: new conversation', median(samples.fresh)],
  ['editor opens: 20-turn conversation', median(samples.turns)],
  ['for reference: jp q --explain (whole run)', median(samples.explain)],
];
for (const [name, ms] of rows) console.log(`${name.padEnd(42)} ${ms.toFixed(1).padStart(7)} ms  ${(ms / base).toFixed(2)}×`);
rmSync(ws, { recursive: true, force: true });
const worst = Math.max(...rows.slice(1, 3).map(([, ms]) => ms / base));
if (check && worst > 1.3) {
  console.error(`over budget: the editor opens at ${worst.toFixed(2)}× jp --version (budget 1.3×)`);
  process.exit(1);
}
