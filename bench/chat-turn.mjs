#!/usr/bin/env node
// What a `jp chat` turn costs (issue N), on a pty under tmux: the time from Enter to the next
// prompt for an echo turn, at turn 2 and at turn 200 of one chat, against a `jp q` of the same turn
// minus Node's start-up (`node -e 0`), all in this run. Budgets: a chat turn ≤ the `jp q` turn less
// Node's start; turn 200 ≤ 1.2× turn 2. The echo answer lists every turn, so it grows with the
// conversation; `jp q` at the same length is measured too, and the ratio at 200 is taken against it.
//
//   node bench/chat-turn.mjs [--runs N] [--turns N] [--no-check]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption } from './bench-args.mjs';

const runs = numberOption('--runs', 9);
const turns = numberOption('--turns', 200);
const check = !process.argv.includes('--no-check');
const jp = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const ws = mkdtempSync(path.join(tmpdir(), 'jp-bench-chat-'));
const socket = path.join(ws, 'tmux.sock');
const env = { ...process.env, HOME: ws, XDG_CONFIG_HOME: path.join(ws, '.config'), XDG_STATE_HOME: path.join(ws, 'state'), TERM: 'xterm' };
const tmux = (...args) => spawnSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], { cwd: ws, env, encoding: 'utf8' });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Whether the chat waits at an empty prompt: the screen's last line is `jp> ` and nothing after it. */
const atPrompt = () => tmux('capture-pane', '-p', '-J', '-t', 'b').stdout.trimEnd().split('\n').at(-1) === 'jp>';

spawnSync(process.execPath, [jp, 'init', '--no-gitignore'], { cwd: ws, env, stdio: 'ignore' });

/** Enter to the next prompt, polled every millisecond of the tmux screen. */
async function chatTurn(text) {
  tmux('send-keys', '-t', 'b', '-l', text);
  while (atPrompt()) await sleep(1);
  const start = performance.now();
  tmux('send-keys', '-t', 'b', 'Enter');
  while (!atPrompt()) await sleep(1);
  return performance.now() - start;
}

function timed(argv) {
  const start = performance.now();
  const run = spawnSync(process.execPath, argv, { cwd: ws, env, stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`${argv.join(' ')} failed`);
  return performance.now() - start;
}

tmux('new-session', '-d', '-s', 'b', '-x', '200', '-y', '50', '-c', ws, `${process.execPath} ${jp} chat -n -m echo`);
while (!atPrompt()) await sleep(10);
const early = [];
const late = [];
for (let turn = 0; turn < turns; turn += 1) {
  const ms = await chatTurn(`turn ${turn}`);
  if (turn >= 2 && turn < 2 + runs) early.push(ms);
  if (turn >= turns - runs) late.push(ms);
}
const id = spawnSync(process.execPath, [jp, '-F', 'json', 'conversation', 'ls'], { cwd: ws, env, encoding: 'utf8' }).stdout;
const chatId = JSON.parse(id).conversations[0].id;
tmux('kill-server');

const node = [];
const query = [];
const queryLate = [];
const fork = (until) => JSON.parse(spawnSync(process.execPath, [jp, '-F', 'json', 'conversation', 'fork', chatId, '--until-turn', String(until)], { cwd: ws, env, encoding: 'utf8' }).stdout).id;
const shortOne = fork(2);
const longOne = fork(turns - 1);
for (let i = 0; i < runs; i += 1) {
  node.push(timed(['-e', '0']));
  query.push(timed([jp, 'query', '--no-persist', '--id', shortOne, '-m', 'echo', 'x']));
  queryLate.push(timed([jp, 'query', '--no-persist', '--id', longOne, '-m', 'echo', 'x']));
}
rmSync(ws, { recursive: true, force: true });
const rows = {
  'node -e 0': median(node),
  'jp q, turn 3 (whole run)': median(query),
  [`jp q, turn ${turns} (whole run)`]: median(queryLate),
  'chat turn 2..': median(early),
  [`chat turn ${turns - runs}..${turns - 1}`]: median(late),
};
for (const [name, ms] of Object.entries(rows)) console.log(`${name.padEnd(28)} ${ms.toFixed(1).padStart(8)} ms`);
const budgetEarly = median(query) - median(node);
const growth = median(late) / median(early);
const queryGrowth = median(queryLate) / median(query);
console.log(`chat turn 2 against jp q less node: ${(median(early) / budgetEarly).toFixed(2)}× (budget ≤ 1)`);
console.log(`chat turn ${turns} / turn 2: ${growth.toFixed(2)}× (budget ≤ 1.2×; jp q at the same lengths: ${queryGrowth.toFixed(2)}×)`);
if (check && (median(early) > budgetEarly || growth > 1.2)) process.exit(1);
