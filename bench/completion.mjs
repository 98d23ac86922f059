#!/usr/bin/env node
// Completion benchmark: what one Tab costs a bash user, from a fresh shell — loading the script
// `jp completion bash` printed (as a shell rc sources it) and completing `jp c use <Tab>` in a
// workspace of N conversations, `jp __complete` child process included. The budget is absolute
// (a Tab must feel instant); `node -e 0` in the same run is printed beside it for comparison.
// Exits 1 over budget unless --no-check is given.
//
//   node bench/completion.mjs [--runs N] [--conversations N] [--no-check]
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption } from './bench-args.mjs';

const args = process.argv.slice(2);
const runs = numberOption('--runs', 30);
const conversations = numberOption('--conversations', 50);
const check = !args.includes('--no-check');
const BUDGET_MS = 50;

const jp = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const root = mkdtempSync(path.join(tmpdir(), 'jp-bench-completion-'));
const ws = path.join(root, 'ws');
const bin = path.join(root, 'bin');
// `jp` on PATH as a global install puts it: a link to the binary, started through its `#!/usr/bin/env node`.
const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config'), PATH: `${bin}:${path.dirname(process.execPath)}:${process.env.PATH}` };

function time(file, argv) {
  const start = process.hrtime.bigint();
  const result = spawnSync(file, argv, { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${file} ${argv.join(' ')} failed: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

try {
  mkdirSync(ws);
  mkdirSync(bin);
  symlinkSync(jp, path.join(bin, 'jp'));
  execFileSync(process.execPath, [jp, 'init', ws], { env, stdio: 'ignore' });
  for (let i = 0; i < conversations; i++) {
    execFileSync(process.execPath, [jp, '-w', ws, 'query', '--new', '-m', 'echo', '--title', `question ${i}`, `question ${i}`], { env, stdio: 'ignore' });
  }
  const script = path.join(root, 'jp.bash');
  writeFileSync(script, execFileSync(process.execPath, [jp, 'completion', 'bash'], { env }));
  const tab = `eval "$(cat ${JSON.stringify(script)})"; COMP_WORDS=(jp c use ""); COMP_CWORD=3; _jp; echo \${#COMPREPLY[@]}`;
  const commands = [
    { name: 'node -e 0', file: process.execPath, argv: ['-e', '0'] },
    // What the child can cost at least: the scripts start it with NODE_EXTRA_CA_CERTS empty.
    { name: 'node -e 0, NODE_EXTRA_CA_CERTS empty', file: 'env', argv: ['NODE_EXTRA_CA_CERTS=', process.execPath, '-e', '0'] },
    { name: `load script + jp c use <Tab> (${conversations} conversations)`, file: 'bash', argv: ['--norc', '--noprofile', '-c', tab], budget: BUDGET_MS },
    { name: 'jp __complete conversations alone', file: 'env', argv: ['NODE_EXTRA_CA_CERTS=', path.join(bin, 'jp'), '__complete', 'conversations'] },
  ];
  const offered = time('bash', commands[2].argv).stdout.trim();
  if (offered !== String(conversations)) throw new Error(`the completion offered ${offered} conversations, not ${conversations}`);
  const samples = commands.map(() => []);
  for (let i = 0; i < 3; i++) commands.forEach((command) => time(command.file, command.argv)); // warm the page cache
  for (let i = 0; i < runs; i++) commands.forEach((command, k) => samples[k].push(time(command.file, command.argv).ms));
  const medians = samples.map(median);
  console.log(`completion, median of ${runs} runs (Node ${process.version}, bash)`);
  commands.forEach((command, k) => {
    const budget = command.budget === undefined ? '' : `  (budget ${command.budget} ms)`;
    console.log(`${command.name.padEnd(52)} ${medians[k].toFixed(1).padStart(7)} ms  ${(medians[k] / medians[0]).toFixed(2)}×${budget}`);
  });
  const over = commands.filter((command, k) => command.budget !== undefined && medians[k] > command.budget);
  if (check && over.length > 0) {
    console.log(`over budget: ${over.map((command) => command.name).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
