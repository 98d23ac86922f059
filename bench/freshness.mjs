#!/usr/bin/env node
// The freshness check's cost (RFD 020, "Freshness notices"): a follow-up query on a conversation
// that declared a large tree, with `conversation.attachment.refresh = "notify"` (every declared
// file's stamp compared with the file cache, content hashed only where a stamp changed) against
// `"manual"` (no check). The tree is attach-tree.mjs's: N files of about MB/N bytes in 100
// directories, a tenth of them ignored. One file is edited before the timed runs, so `notify`
// re-reads it (and says so) while the other files cost a `stat` each, and one file is created, so
// `notify` also lists the declared directory to find it (issue P). Both cases are whole
// queries on the echo model, stored, interleaved run by run.
// Prints medians and the ratio; exits 1 when notify / manual is over its budget (1.2×) unless
// --no-check is given.
//
//   node bench/freshness.mjs [--files N] [--mb N] [--runs N] [--no-check] [--keep]
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeTree } from './tree-content.mjs';
import { median, option } from './bench-args.mjs';

const args = process.argv.slice(2);
const files = Number(option('--files', 10_000));
const megabytes = Number(option('--mb', 100));
const runs = Number(option('--runs', 5));
const check = !args.includes('--no-check');
const keep = args.includes('--keep');
const BUDGET = 1.2;

const jp = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const root = mkdtempSync(path.join(tmpdir(), 'jp-bench-fresh-'));
const tree = path.join(root, 'tree');
const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config'), NO_COLOR: '1' };

/** attach-tree.mjs's tree, without git (the check never asks git). Returns the first file's path. */
function generate() {
  const first = writeTree(tree, files, megabytes);
  execFileSync(process.execPath, [jp, 'init'], { cwd: tree, env, stdio: 'ignore' });
  execFileSync('sync');
  return first;
}

function run(argv) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [jp, ...argv], { cwd: tree, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`jp ${argv.join(' ')} failed (${result.status}): ${result.stderr}`);
  return { ms, stderr: result.stderr.toString() };
}


try {
  const edited = generate();
  // The file cache remembers only stamps that had settled when read (RFD 002): the tree is older
  // than that by the time a user asks a follow-up question.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const limits = ['-c', 'conversation.attachment.max_files=20000', '-c', 'conversation.attachment.size_policy=allow'];
  const first = run(['query', '--new', '-m', 'echo', '--attach', './', ...limits, 'x']);
  const id = /new conversation (\S+)/.exec(first.stderr)?.[1];
  if (id === undefined) throw new Error(`no conversation id in: ${first.stderr}`);
  appendFileSync(edited, '// edited\n');
  // A file created under the declared directory after it was read: notify lists the directories too.
  appendFileSync(path.join(path.dirname(edited), 'added-after.ts'), 'export const added = true;\n');
  const cases = [
    { label: 'follow-up, refresh = "manual"', policy: 'manual' },
    { label: 'follow-up, refresh = "notify"', policy: 'notify' },
  ];
  const argv = (policy) => ['query', '--id', id, '-c', `conversation.attachment.refresh=${policy}`, 'next'];
  cases.forEach(({ policy }) => run(argv(policy))); // warm the page cache and the file cache
  // The check ran: the edited file was noticed (once) in the stored stream.
  const stream = readFileSync(path.join(tree, '.jp', 'conversations', id, 'events.jsonl'), 'utf8');
  if (!stream.includes('"notices":[{') || !stream.includes('changed since it was attached in turn 0')) throw new Error('notify gave no notice of the edited file');
  if (!stream.includes('added-after.ts is new under ./')) throw new Error('notify gave no notice of the file created under the declared directory');
  const samples = cases.map(() => []);
  for (let i = 0; i < runs; i++) cases.forEach(({ policy }, k) => samples[k].push(run(argv(policy)).ms));
  const [manual, notify] = samples.map(median);
  const ratio = notify / manual;
  console.log(`freshness check on a follow-up query: ${files} files, ~${megabytes} MB declared, one edited; median of ${runs} runs (Node ${process.version})`);
  console.log(`${cases[0].label.padEnd(32)} ${manual.toFixed(0).padStart(7)} ms  1.00×`);
  console.log(`${cases[1].label.padEnd(32)} ${notify.toFixed(0).padStart(7)} ms  ${ratio.toFixed(2)}×  (budget ${BUDGET}×)`);
  if (check && ratio > BUDGET) {
    console.error(`freshness: notify costs ${ratio.toFixed(2)}× manual, over the budget of ${BUDGET}×`);
    process.exitCode = 1;
  }
} finally {
  if (keep) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
