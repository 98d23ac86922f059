#!/usr/bin/env node
// `jp conversation show --html` on a large conversation: N turns (1 000) whose snapshots hold MB
// megabytes (200) of blobs, half text (a new file each turn, larger than the page's fold cap) and
// half binary (application/octet-stream, never shown); every tenth turn attaches turn 0's file
// again (deduplicated: shown as a pointer, not read). The conversation is written the way the
// store writes it (bench/conversation-fixture.mjs). Then two changes make any read of what the
// page does not show fail the command:
//   - every binary blob is deleted (reading one is a "missing blob" error);
//   - every text blob keeps its first 16 KiB (the cap) and has the rest zeroed, size unchanged:
//     reading it whole would verify it against its sha256 and fail as damaged.
// The command is timed through the built binary (start-up included), RUNS times; its median must
// be ≤ 2 s. A control run with one shown blob deleted must fail, so the proof has teeth. Prints
// the page's size against the text it shows (≤ 3×).
//
//   node bench/conversation-html.mjs [--turns N] [--mb N] [--runs N] [--no-check] [--keep]
//   (build first: cd apps/jp && npx tsup)
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeConversation } from './conversation-fixture.mjs';
import { option } from './bench-args.mjs';

const args = process.argv.slice(2);
const turns = Number(option('--turns', 1000));
const megabytes = Number(option('--mb', 200));
const runs = Number(option('--runs', 5));
const check = !args.includes('--no-check');
const keep = args.includes('--keep');
const BUDGET_MS = 2000;
const CAP = 16 * 1024;
const jp = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');

const ws = mkdtempSync(path.join(tmpdir(), 'jp-bench-html-'));
mkdirSync(path.join(ws, 'home'), { recursive: true });
const env = { PATH: process.env.PATH, HOME: path.join(ws, 'home'), XDG_CONFIG_HOME: path.join(ws, 'home', '.config'), NO_COLOR: '1' };
const perTurn = Math.floor((megabytes * 1024 * 1024) / turns / 2);
const line = (i, n) => `// file ${i}, line ${n}: const value${n} = compute(${n}) + ${i}; if (value${n} < limit) { log("ok"); }\n`;
const textOf = (i) => {
  let text = '';
  for (let n = 0; text.length < perTurn; n++) text += line(i, n);
  return text.slice(0, perTurn);
};

const started = performance.now();
const id = '0mx0bench0-html0';
const text0 = textOf(0);
const shownText = [];
const written = writeConversation(ws, {
  id,
  title: `${turns} turns, ${megabytes} MB`,
  baseConfig: { assistant: { model: 'anthropic/claude-sonnet-4-5' } },
  turns: Array.from({ length: turns }, (_, i) => {
    const text = i === 0 ? text0 : textOf(i);
    const query = `turn ${i}: what changed in src/file${i}.ts?`;
    const answer = `In turn ${i}, \`value\` is compared with **limit** before logging.`;
    shownText.push(query.length, answer.length, Math.min(CAP, text.length));
    const resources = [
      { uri: `file:///w/src/file${i}.ts`, name: `src/file${i}.ts`, mimeType: 'text/plain', content: text },
      { uri: `file:///w/data/blob${i}.bin`, name: `data/blob${i}.bin`, mimeType: 'application/octet-stream', content: randomBytes(perTurn) },
    ];
    if (i > 0 && i % 10 === 0) resources.push({ uri: 'file:///w/src/file0.ts', name: 'src/file0.ts', mimeType: 'text/plain', content: text0 });
    return { query, answer, resources, usage: { inputTokens: 20_000 + i * 40, cacheReadTokens: i === 0 ? 0 : 18_000 + i * 30, cacheWriteTokens: i === 0 ? 18_000 : 1_000, outputTokens: 300 + (i % 13) * 20 } };
  }),
});
const generatedMs = performance.now() - started;
let totalBytes = 0;
let binaries = 0;
let textBlobs = 0;
for (const blob of written.values()) {
  totalBytes += blob.size;
  if (blob.uri.endsWith('.bin')) {
    rmSync(blob.file);
    binaries++;
  } else if (blob.size > CAP) {
    const fd = openSync(blob.file, 'r+');
    writeSync(fd, Buffer.alloc(blob.size - CAP), 0, blob.size - CAP, CAP);
    closeSync(fd);
    textBlobs++;
  }
}
console.log(`fixture: ${turns} turns, ${written.size} blobs, ${(totalBytes / 1024 / 1024).toFixed(1)} MB, written in ${Math.round(generatedMs)} ms`);
console.log(`  made unreadable: ${binaries} binary blobs deleted (${((binaries * perTurn) / 1024 / 1024).toFixed(1)} MB), ${textBlobs} text blobs zeroed after their first ${CAP} bytes`);

const out = path.join(ws, 'page.html');
const times = [];
for (let run = 0; run < runs; run++) {
  const t = performance.now();
  const result = spawnSync(process.execPath, [jp, 'conversation', 'show', id, '--html', '-o', out], { cwd: ws, env, encoding: 'utf8' });
  times.push(performance.now() - t);
  if (result.status !== 0) {
    console.error(`jp failed (exit ${result.status}): ${result.stderr.trim()}`);
    process.exit(1);
  }
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const htmlBytes = statSync(out).size;
const shown = shownText.reduce((a, b) => a + b, 0);
console.log(`render (built binary, start-up included): median ${Math.round(median)} ms of ${runs} runs (min ${Math.round(times[0])}, max ${Math.round(times.at(-1))}); budget ${BUDGET_MS} ms`);
console.log(`page: ${(htmlBytes / 1024 / 1024).toFixed(2)} MB for ${(shown / 1024 / 1024).toFixed(2)} MB of text shown: ${(htmlBytes / shown).toFixed(2)}× (budget 3×)`);
console.log(`reads: every run succeeded with ${binaries} unshown blobs missing and ${textBlobs} blobs valid only in their first ${CAP} bytes`);

// Control: a blob the page shows, deleted, fails the command.
const shownBlob = [...written.values()].find((blob) => blob.uri === 'file:///w/src/file1.ts');
rmSync(shownBlob.file);
const control = spawnSync(process.execPath, [jp, 'conversation', 'show', id, '--html', '-o', path.join(ws, 'control.html')], { cwd: ws, env, encoding: 'utf8' });
console.log(`control (a shown blob deleted): exit ${control.status}, ${control.stderr.trim()}`);

if (!keep) rmSync(ws, { recursive: true, force: true });
else console.log(`kept ${ws}`);
const failures = [];
if (median > BUDGET_MS) failures.push(`render median ${Math.round(median)} ms > ${BUDGET_MS} ms`);
if (htmlBytes / shown > 3) failures.push(`page ${(htmlBytes / shown).toFixed(2)}× the text it shows > 3×`);
if (control.status === 0) failures.push('the control run did not fail: the read check proves nothing');
if (check && failures.length > 0) {
  console.error(`over budget: ${failures.join('; ')}`);
  process.exit(1);
}
