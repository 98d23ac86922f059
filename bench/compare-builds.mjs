#!/usr/bin/env node
// Two or more builds of jp on the tree benchmark, interleaved run by run so that drift in the
// machine's speed hits them alike, against `git ls-files -z | xargs -0 cat` in the same runs.
// Keep a tree first with `node bench/attach-tree.mjs --runs 1 --no-check --keep`, build each
// commit into its own directory (`cd apps/jp && npx tsup -d /tmp/jp-a`), then:
//
//   node bench/compare-builds.mjs --tree /tmp/jp-bench-tree-XXXX/tree [--runs 11] a=/tmp/jp-a/jp.js b=/tmp/jp-b/jp.js
//
// Each build is timed attaching the tree to a new conversation twice: with .jp/blobs, .jp/(local/)cache
// and .jp/conversations deleted first (first attach) and with only .jp/conversations deleted
// (again). Prints medians and ratios to git's median.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { median, option } from './bench-args.mjs';

const args = process.argv.slice(2);
const tree = option('--tree', undefined);
const runs = Number(option('--runs', 11));
const builds = args.filter((arg) => /^[^-][^=]*=/.test(arg)).map((arg) => arg.split('=')).map(([name, bin]) => [name, path.resolve(bin)]);
if (tree === undefined || builds.length === 0) {
  console.error('usage: node bench/compare-builds.mjs --tree DIR [--runs N] NAME=path/to/jp.js …');
  process.exit(2);
}

const root = path.dirname(tree);
const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config'), NO_COLOR: '1' };
const query = ['query', '--new', '-m', 'echo', '--attach', './', '-c', 'conversation.attachment.max_files=20000', '-c', 'conversation.attachment.size_policy=allow', 'x'];
const cases = [{ label: 'git ls-files -z | xargs -0 cat', argv: ['sh', '-c', 'git ls-files -z | xargs -0 cat > /dev/null'], fresh: [] }];
for (const [name, bin] of builds) {
  cases.push({ label: `${name}, first attach`, argv: [process.execPath, bin, ...query], fresh: ['conversations', 'blobs', 'cache', 'local/cache'] });
  cases.push({ label: `${name}, again`, argv: [process.execPath, bin, ...query], fresh: ['conversations'] });
}

function time({ argv, fresh }) {
  for (const name of fresh) rmSync(path.join(tree, '.jp', name), { recursive: true, force: true });
  const start = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { cwd: tree, env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed (${result.status}): ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const samples = cases.map(() => []);
cases.forEach(time); // warm the page cache
for (let i = 0; i < runs; i++) cases.forEach((c, k) => samples[k].push(time(c)));
const git = median(samples[0]);
console.log(`median of ${runs} interleaved runs (Node ${process.version})`);
cases.forEach((c, k) => console.log(`${c.label.padEnd(34)} ${median(samples[k]).toFixed(0).padStart(6)} ms  ${(median(samples[k]) / git).toFixed(2)}×`));
