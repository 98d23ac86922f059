#!/usr/bin/env node
// `jp conversation grep` against ripgrep (issue X, RFD 033). A workspace of CONVERSATIONS (1 000)
// conversations of TURNS (50) turns, ~200 MB of text across events.jsonl files, loose blobs and one
// pack per conversation (bench/grep-workspace.mjs), and the same text exported as plain files: a
// transcript per conversation and each attached file as the file it was. In the same run,
// interleaved:
//   - literal, warm: `jp conversation grep NEEDLE` against `rg -F NEEDLE EXPORT`;
//   - literal, cold: the same after `sync; echo 3 > /proc/sys/vm/drop_caches` before each command
//     (root only; skipped, and said so, where the kernel refuses);
//   - regex (reported only): `--regex 'ENOSPC-\w+-bug-[0-9a-f]+'`, which has a required literal,
//     and `--regex '[0-9][a-f][0-9][a-f]-'`, which has none, so every stored line is parsed;
//   - the first search, which builds jp's index (.jp/local/search-index): its time and the index's
//     size, and again with the index removed before each run (reported only);
//   - peak memory of jp (GNU time's maximum resident set size).
// Every command must find the planted needles (four for the literal), or the bench fails. Both
// run with a bare environment (PATH, HOME, NO_COLOR): Node then does not load the machine's
// NODE_EXTRA_CA_CERTS bundle, which a search, opening no connection, would not need.
// `jp query` never reads or writes the index, so it adds nothing to a query.
// Budgets: literal ≤ 1.5× rg, warm and cold; peak memory < 256 MB. Exit 1 when one is missed,
// unless --no-check.
//
//   node bench/conversation-grep.mjs [--conversations N] [--turns N] [--runs N] [--cold-runs N] [--keep] [--no-check]
//   (build first: pnpm build)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption } from './bench-args.mjs';
import { NEEDLE, writeGrepWorkspace } from './grep-workspace.mjs';

const args = process.argv.slice(2);
const conversations = numberOption('--conversations', 1000);
const turns = numberOption('--turns', 50);
const runs = numberOption('--runs', 5);
const coldRuns = numberOption('--cold-runs', 3);
const check = !args.includes('--no-check');
const keep = args.includes('--keep');
const BUDGET = 1.5;
const MEMORY_MB = 256;

const here = path.dirname(fileURLToPath(import.meta.url));
const jp = process.env.JP_BIN ?? path.resolve(here, '../apps/jp/dist/jp.js');
if (!existsSync(jp)) throw new Error(`${jp} is missing: run \`pnpm build\` first`);
const { rgPath } = await import(createRequire(import.meta.url).resolve('@vscode/ripgrep'));
const TIME = '/usr/bin/time';

const root = mkdtempSync(path.join(tmpdir(), 'jp-bench-grep-'));
const ws = path.join(root, 'ws');
const exported = path.join(root, 'export');
mkdirSync(path.join(root, 'home'), { recursive: true });
const env = { PATH: process.env.PATH, HOME: path.join(root, 'home'), XDG_CONFIG_HOME: path.join(root, 'home', '.config'), NO_COLOR: '1' };

let started = performance.now();
const { textBytes } = writeGrepWorkspace(ws, exported, { conversations, turns });
console.log(`workspace: ${conversations} conversations × ${turns} turns, ${(textBytes / 1e6).toFixed(1)} MB of text (written in ${((performance.now() - started) / 1000).toFixed(1)} s)`);

/** Runs a command, returns its wall time (ms), stdout, and peak RSS (KB) when GNU time is there. */
function run(argv, { cwd = ws, expectCode = 0 } = {}) {
  const timed = existsSync(TIME);
  const stats = path.join(root, 'time.txt');
  const command = timed ? [TIME, '-f', '%M', '-o', stats, ...argv] : argv;
  const start = process.hrtime.bigint();
  const result = spawnSync(command[0], command.slice(1), { cwd, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== expectCode) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  const rssKb = timed ? Number(spawnSync('cat', [stats], { encoding: 'utf8' }).stdout.trim().split('\n').at(-1)) : undefined;
  return { ms, stdout: result.stdout, rssKb };
}

function dropCaches() {
  spawnSync('sync');
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
    return true;
  } catch {
    return false;
  }
}

const jpGrep = (...rest) => [process.execPath, jp, 'conversation', 'grep', ...rest];
const rg = (...rest) => [rgPath, '--no-config', ...rest, exported];
const hits = (stdout) => stdout.split('\n').filter((line) => line.includes(NEEDLE)).length;

/** Interleaved runs of jp and rg; medians and the ratio. `prepare` runs before each command (untimed). */
function compare(name, jpArgs, rgArgs, count, prepare = () => undefined) {
  const jpMs = [];
  const rgMs = [];
  let rss = 0;
  for (let i = 0; i < count; i++) {
    prepare();
    const a = run(jpGrep(...jpArgs));
    prepare();
    const b = run(rg(...rgArgs));
    if (hits(a.stdout) !== 4 || hits(b.stdout) !== 4) throw new Error(`${name}: jp found ${hits(a.stdout)} needles, rg ${hits(b.stdout)}; both must find 4\n${a.stdout}`);
    jpMs.push(a.ms);
    rgMs.push(b.ms);
    rss = Math.max(rss, a.rssKb ?? 0);
  }
  const ratio = median(jpMs) / median(rgMs);
  console.log(`${name.padEnd(34)} jp ${median(jpMs).toFixed(0).padStart(6)} ms   rg ${median(rgMs).toFixed(0).padStart(6)} ms   ${ratio.toFixed(2)}×   jp peak ${rss > 0 ? `${(rss / 1024).toFixed(0)} MB` : 'n/a'}`);
  return { ratio, rssMb: rss / 1024 };
}

const failures = [];
try {
  // `jp c ls` builds the activity cache, as it would have been built by use. The first search
  // builds the index (.jp/local/search-index): timed alone, with its size.
  run([process.execPath, jp, 'conversation', 'ls'], {});
  run(rg('-F', NEEDLE));
  const indexFile = path.join(ws, '.jp', 'local', 'search-index');
  const first = run(jpGrep(NEEDLE));
  const indexMb = statSync(indexFile).size / 1e6;
  console.log(`first search, building the index: ${first.ms.toFixed(0)} ms, peak ${first.rssKb ? `${(first.rssKb / 1024).toFixed(0)} MB` : 'n/a'}; index ${indexMb.toFixed(1)} MB (${((indexMb * 1e8) / textBytes).toFixed(1)} % of the text)`);
  if ((first.rssKb ?? 0) / 1024 >= MEMORY_MB) failures.push(`peak memory (first search) ${(first.rssKb / 1024).toFixed(0)} MB ≥ ${MEMORY_MB} MB`);
  const uptime = spawnSync('uptime', { encoding: 'utf8' }).stdout.trim();
  console.log(`load: ${uptime.slice(uptime.indexOf('load average'))}`);

  const warm = compare('literal, warm', [NEEDLE], ['-F', NEEDLE], runs);
  if (warm.ratio > BUDGET) failures.push(`literal warm ${warm.ratio.toFixed(2)}× > ${BUDGET}×`);
  if (warm.rssMb >= MEMORY_MB) failures.push(`peak memory ${warm.rssMb.toFixed(0)} MB ≥ ${MEMORY_MB} MB`);

  if (dropCaches()) {
    const cold = compare('literal, cold (caches dropped)', [NEEDLE], ['-F', NEEDLE], coldRuns, dropCaches);
    if (cold.ratio > BUDGET) failures.push(`literal cold ${cold.ratio.toFixed(2)}× > ${BUDGET}×`);
  } else console.log('literal, cold: skipped (writing /proc/sys/vm/drop_caches needs root)');

  // With the index removed before each run: every file read, and the index built again (reported only).
  const bare = compare('literal, index built (first search)', [NEEDLE], ['-F', NEEDLE], Math.min(runs, 3), () => rmSync(indexFile, { force: true }));
  if (bare.rssMb >= MEMORY_MB) failures.push(`peak memory (first search) ${bare.rssMb.toFixed(0)} MB ≥ ${MEMORY_MB} MB`);

  const regex = compare('regex, required literal', ['--regex', 'ENOSPC-\\w+-bug-[0-9a-f]+'], ['ENOSPC-\\w+-bug-[0-9a-f]+'], runs);
  const parsed = compare('regex, no required literal', ['--regex', '[0-9][a-f][0-9][a-f]'], ['[0-9][a-f][0-9][a-f]'], Math.min(runs, 3));
  if (Math.max(regex.rssMb, parsed.rssMb) >= MEMORY_MB) failures.push(`peak memory (regex) ${Math.max(regex.rssMb, parsed.rssMb).toFixed(0)} MB ≥ ${MEMORY_MB} MB`);
} finally {
  if (keep) console.log(`kept: ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(`over budget: ${failures.join('; ')}`);
  if (check) process.exit(1);
}
