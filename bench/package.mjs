#!/usr/bin/env node
// The npm package (issue O): the tarball's size, and `jp --version` of the copy `npm install -g`
// made (offline, into a temporary prefix) against `node -e 0`, run by run in this process.
// Budgets: tarball ≤ 10 MB; installed --version ≤ 1.3× node -e 0. Build first.
//
//   node bench/package.mjs [--runs N] [--no-check]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption } from './bench-args.mjs';

const runs = numberOption('--runs', 21);
const check = !process.argv.includes('--no-check');
const app = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp');
const work = mkdtempSync(path.join(tmpdir(), 'jp-bench-pack-'));
const npm = (args) => {
  const run = spawnSync('npm', args, { cwd: app, encoding: 'utf8', env: { ...process.env, npm_config_cache: path.join(work, 'cache') } });
  if (run.status !== 0) throw new Error(`npm ${args.join(' ')}: ${run.stderr}`);
};
npm(['pack', '--silent', '--pack-destination', work]);
const tarball = path.join(work, readdirSync(work).find((name) => name.endsWith('.tgz')));
npm(['install', '-g', '--offline', '--no-audit', '--no-fund', '--prefix', path.join(work, 'prefix'), tarball]);
const jp = path.join(work, 'prefix', 'bin', 'jp');

const time = (command, args) => {
  const start = performance.now();
  const run = spawnSync(command, args, { stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`${command} failed`);
  return performance.now() - start;
};
const node = [];
const version = [];
for (let i = 0; i < runs; i += 1) {
  node.push(time(process.execPath, ['-e', '0']));
  version.push(time(jp, ['--version']));
}
const size = statSync(tarball).size;
const ratio = median(version) / median(node);
console.log(`tarball                      ${(size / 1024 / 1024).toFixed(2)} MB (budget 10 MB)`);
console.log(`node -e 0                    ${median(node).toFixed(1)} ms`);
console.log(`installed jp --version       ${median(version).toFixed(1)} ms  ${ratio.toFixed(2)}× (budget 1.3×)`);
rmSync(work, { recursive: true, force: true });
if (check && (size > 10 * 1024 * 1024 || ratio > 1.3)) process.exit(1);
