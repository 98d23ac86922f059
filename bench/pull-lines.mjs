#!/usr/bin/env node
// Issue W: the first `jp q` after a pull that brought 1 000 turns from another clone, against a
// `jp q` on a 1 000-turn conversation that never diverged. Both conversations are written as the
// store writes them (turn ids and parents, echo answers); in the pulled one, this clone's own
// 1 000 turns are a branch (the other clone's started first), this clone's tip is its last turn,
// and the activity cache is left out, as after a pull that changed the file. Each run starts from
// a fresh copy (untimed), so every timed query meets the state it is measured for; the two are
// interleaved run by run. Exits 1 when the ratio passes its budget (1.5×) unless --no-check.
//
//   node bench/pull-lines.mjs [--runs N] [--turns N] [--no-check]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption } from './bench-args.mjs';

const runs = numberOption('--runs', 15);
const turns = numberOption('--turns', 1000);
const check = !process.argv.includes('--no-check');
const jp = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const root = mkdtempSync(path.join(tmpdir(), 'jp-bench-pull-'));
const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config'), NO_COLOR: '1' };
const ID = '0mx00000000-bench';
const hex = (n, salt) => (salt * 1_000_003 + n).toString(16).padStart(12, '0').slice(-12);

/** The lines of one line of turns: `count` turns after `parent`, ids salted per clone, starting at `start` ms. */
function lineOf(count, { salt, parent, start, from = 0 }) {
  const lines = [];
  let previous = parent;
  for (let i = 0; i < count; i++) {
    const id = hex(i + from, salt);
    const timestamp = new Date(start + i * 1000).toISOString();
    lines.push({ type: 'turn_start', timestamp, id, parent: previous, model: 'echo' });
    lines.push({ type: 'chat_request', timestamp, content: `question ${salt}-${i} ${'x'.repeat(60)}` });
    lines.push({ type: 'chat_response', timestamp, usage: { inputTokens: 100, outputTokens: 20 }, message: `answer ${salt}-${i} ${'y'.repeat(120)}` });
    previous = id;
  }
  return { lines, tip: previous };
}

function workspace(name, events, tip) {
  const ws = path.join(root, name);
  const dir = path.join(ws, '.jp', 'conversations', ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(ws, '.jp', 'config.toml'), '');
  writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify({ id: ID, title: 'bench', createdAt: '2026-11-01T00:00:00.000Z', lastActivityAt: '2026-11-01T00:00:00.000Z', turnCount: 1, configVersion: 2 }));
  writeFileSync(path.join(dir, 'base-config.json'), '{}');
  writeFileSync(path.join(dir, 'events.jsonl'), events.map((line) => `${JSON.stringify(line)}\n`).join(''));
  mkdirSync(path.join(ws, '.jp', 'local'), { recursive: true });
  writeFileSync(path.join(ws, '.jp', 'local', 'tips.json'), JSON.stringify({ [ID]: tip }));
  return ws;
}

const start = Date.parse('2026-11-01T00:00:00Z');
const first = lineOf(1, { salt: 1, parent: null, start });
// Never diverged: this clone's `turns` turns.
const mine = lineOf(turns - 1, { salt: 2, parent: first.tip, start: start + 10_000_000, from: 1 });
const plain = workspace('plain', [...first.lines, ...mine.lines], mine.tip);
// After the pull: the other clone's `turns` turns, started earlier, so the shared rule makes them the
// conversation and this clone's the branch; union merge puts this clone's lines first.
const theirs = lineOf(turns, { salt: 3, parent: first.tip, start: start + 5_000_000, from: 1 });
const pulled = workspace('pulled', [...first.lines, ...mine.lines, ...theirs.lines], mine.tip);

function timeQuery(ws) {
  const fresh = `${ws}-run`;
  rmSync(fresh, { recursive: true, force: true });
  cpSync(ws, fresh, { recursive: true });
  const t0 = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [jp, '-w', fresh, 'query', '--id', ID, '-m', 'echo', 'one more'], { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (result.status !== 0) throw new Error(`jp q in ${ws} failed: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

try {
  // The pulled query must go on with this clone's line: the echo answer counts the turns it was sent.
  const check1 = timeQuery(pulled).stdout;
  if (!check1.startsWith(`echo: ${turns + 1} turns`) || !check1.includes(`question 2-${turns - 2} `) || check1.includes('question 3-')) {
    throw new Error(`the pulled query did not go on with this clone's line: ${check1.slice(0, 200)}`);
  }
  const samples = { plain: [], pulled: [] };
  for (let i = 0; i < runs + 2; i++) {
    const a = timeQuery(plain).ms;
    const b = timeQuery(pulled).ms;
    if (i >= 2) {
      samples.plain.push(a);
      samples.pulled.push(b);
    }
  }
  const [p, q] = [median(samples.plain), median(samples.pulled)];
  const ratio = q / p;
  console.log(`pull-lines, median of ${runs} runs (Node ${process.version})`);
  console.log(`${`jp q, ${turns}-turn conversation`.padEnd(58)} ${p.toFixed(1).padStart(7)} ms`);
  console.log(`${`jp q after a pull that brought ${turns} turns (own line ${turns})`.padEnd(58)} ${q.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}×  (budget 1.5×)`);
  if (check && ratio > 1.5) process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
