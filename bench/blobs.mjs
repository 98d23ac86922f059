#!/usr/bin/env node
// The blob store and deduplication (RFD 008), three measurements in one run:
//
// 1. growth: a 10 MB file attached to 50 turns of one conversation; `.jp/` may grow by at most
//    1.1× the file's size (budget).
// 2. listing: `jp conversation ls` and `jp attachment ls` on a conversation of 1 000 turns holding
//    200 MB of resources (2 000 distinct blobs of 100 KB, written directly in the stored format),
//    against the same commands on an empty workspace (`conversation ls`: no conversation;
//    `attachment ls`: one conversation of one turn declaring the same directory, no resources).
//    Budget 1.5× each: neither command may read a blob.
// 3. wire bytes: a 30-turn scripted session on echo that re-attaches unchanged files every third
//    turn, refreshes files through refresh_resource, and re-attaches a refreshed one; at every turn
//    the request is built with `--explain -m anthropic/…` with deduplication on and off, and the
//    resource bytes it carries are summed over the 30 requests. Reported, no budget.
//
//   node bench/blobs.mjs [--mb N] [--times N] [--turns N] [--runs N] [--only growth,listing,wire] [--reasoning BYTES] [--no-check] [--keep]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, option } from './bench-args.mjs';

const args = process.argv.slice(2);
const mb = Number(option('--mb', 10));
const times = Number(option('--times', 50));
const turns = Number(option('--turns', 1000));
const runs = Number(option('--runs', 15));
const only = new Set(option('--only', 'growth,listing,wire').split(','));
/** Listing: each turn also stores a reasoning event with this many bytes of opaque provider data (RFD 028); 0 for none. */
const reasoningBytes = Number(option('--reasoning', 0));
const check = !args.includes('--no-check');

const jp = process.env.JP_BIN ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/dist/jp.js');
const root = mkdtempSync(path.join(tmpdir(), 'jp-bench-blobs-'));
const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config'), NO_COLOR: '1' };
const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const over = [];

function jpSync(ws, argv, input) {
  const result = spawnSync(process.execPath, [jp, ...argv], { cwd: ws, env, input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`jp ${argv.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

function newWorkspace(name) {
  const ws = path.join(root, name);
  mkdirSync(ws, { recursive: true });
  jpSync(ws, ['init']);
  return ws;
}

/** Apparent size of every file under a directory. */
function treeBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? treeBytes(full) : statSync(full).size;
  }
  return total;
}

function report(label, value, budget) {
  const verdict = budget === undefined ? '' : `  (budget ${budget}×)`;
  console.log(`${label.padEnd(58)} ${value}${verdict}`);
}

function growth() {
  const ws = newWorkspace('growth');
  const size = mb * 1024 * 1024;
  let text = '';
  for (let i = 0; text.length < size; i++) text += `line ${i}: some ordinary text of a large attached file, different on every line\n`;
  writeFileSync(path.join(ws, 'big.txt'), text.slice(0, size));
  const before = treeBytes(path.join(ws, '.jp'));
  const started = Date.now();
  const allow = ['-c', 'conversation.attachment.size_policy=allow'];
  jpSync(ws, ['query', '--new', '-m', 'echo', ...allow, '--attach', 'big.txt', 'turn 0']);
  for (let i = 1; i < times; i++) jpSync(ws, ['query', ...allow, '--attach', 'big.txt', `turn ${i}`]);
  const grown = treeBytes(path.join(ws, '.jp')) - before;
  const ratio = grown / size;
  console.log(`\n1. ${mb} MB file attached ${times} times (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  report('.jp/ growth / file size', `${(grown / 1024 / 1024).toFixed(2)} MiB  ${ratio.toFixed(3)}×`, 1.1);
  report(`inline storage would have grown by about`, `${((times * size) / 1024 / 1024).toFixed(0)} MiB  ${times.toFixed(3)}×`);
  if (ratio > 1.1) over.push('growth');
  if (!args.includes('--keep')) rmSync(ws, { recursive: true, force: true });
}

/** A conversation of `turns` turns, two 100 KB resources each, written in the stored format. */
function bigConversation(ws) {
  const t = '2026-01-01T00:00:00.000Z';
  const id = '0mhz3k1ab-bench';
  const dir = path.join(ws, '.jp', 'conversations', id);
  mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(ws, 'data'), { recursive: true });
  for (let f = 0; f < 50; f++) writeFileSync(path.join(ws, 'data', `f${String(f).padStart(2, '0')}.txt`), `file ${f}\n`);
  const body = Buffer.alloc(100 * 1024, 'resource content line\n');
  const lines = [{ type: 'config_delta', timestamp: t, delta: { conversation: { attachments: ['data/'] } } }];
  let bytes = 0;
  for (let turn = 0; turn < turns; turn++) {
    const resources = [0, 1].map((k) => {
      const name = `data/f${String((turn * 2 + k) % 50).padStart(2, '0')}.txt`;
      const content = Buffer.concat([Buffer.from(`turn ${turn} resource ${k}\n`), body]);
      const hash = sha256(content);
      mkdirSync(path.join(ws, '.jp', 'blobs', hash.slice(0, 2)), { recursive: true });
      writeFileSync(path.join(ws, '.jp', 'blobs', hash.slice(0, 2), hash), content);
      bytes += content.length;
      return { uri: `file://${ws}/${name}`, mimeType: 'text/plain', name, $blob: hash, size: content.length, encoding: 'text' };
    });
    lines.push({ type: 'turn_start', timestamp: t }, { type: 'chat_request', timestamp: t, content: `question ${turn}`, resources });
    if (reasoningBytes > 0) {
      // An OpenAI reasoning item as jp stores it: the encrypted content is base64, reasoningBytes long.
      const encrypted = createHash('sha256').update(`rs${turn}`).digest('base64').repeat(Math.ceil(reasoningBytes / 44)).slice(0, reasoningBytes);
      lines.push({ type: 'chat_response', timestamp: t, reasoning: `thinking ${turn}`, opaque: { provider: 'openai', items: [{ type: 'reasoning', id: `rs_${turn}`, summary: [], encrypted_content: encrypted }] } });
    }
    lines.push({ type: 'chat_response', timestamp: t, message: `answer ${turn}` });
  }
  writeFileSync(path.join(dir, 'events.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify({ title: 'big', createdAt: t, lastActivityAt: t, turnCount: turns }));
  writeFileSync(path.join(dir, 'base-config.json'), JSON.stringify({ assistant: { model: 'echo' } }));
  writeFileSync(path.join(ws, '.jp', 'active'), `${id}\n`);
  return bytes;
}

function time(ws, argv) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [jp, ...argv], { cwd: ws, env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`jp ${argv.join(' ')} failed: ${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function listing() {
  const big = newWorkspace('big');
  const started = Date.now();
  const bytes = bigConversation(big);
  const empty = newWorkspace('empty');
  const emptyWithConversation = newWorkspace('empty-conversation');
  mkdirSync(path.join(emptyWithConversation, 'data'));
  writeFileSync(path.join(emptyWithConversation, 'data', 'f00.txt'), 'file 0\n');
  jpSync(emptyWithConversation, ['query', '--new', '-m', 'echo', 'hi']);
  jpSync(emptyWithConversation, ['attachment', 'add', 'data/']); // declared, not resolved yet: no resources
  const events = statSync(path.join(big, '.jp', 'conversations', '0mhz3k1ab-bench', 'events.jsonl')).size;
  const opaque = reasoningBytes > 0 ? `, ${reasoningBytes} bytes of opaque reasoning data a turn (events.jsonl ${(events / 1024 / 1024).toFixed(1)} MiB, ${Math.round(events / turns)} bytes a turn)` : ` (events.jsonl ${(events / 1024 / 1024).toFixed(1)} MiB)`;
  console.log(`\n2. ${turns} turns, ${(bytes / 1024 / 1024).toFixed(0)} MiB of resources in 2 000 blobs${opaque} (built in ${((Date.now() - started) / 1000).toFixed(1)} s); median of ${runs} runs`);
  const commands = [
    [empty, ['conversation', 'ls']],
    [big, ['conversation', 'ls']],
    [emptyWithConversation, ['attachment', 'ls']],
    [big, ['attachment', 'ls']],
  ];
  const samples = commands.map(() => []);
  for (let i = 0; i < 3; i++) for (const [ws, argv] of commands) time(ws, argv);
  for (let i = 0; i < runs; i++) commands.forEach(([ws, argv], k) => samples[k].push(time(ws, argv)));
  const [lsEmpty, lsBig, aEmpty, aBig] = samples.map(median);
  report('jp conversation ls, empty workspace', `${lsEmpty.toFixed(1)} ms`);
  report(`jp conversation ls, ${turns}-turn conversation`, `${lsBig.toFixed(1)} ms  ${(lsBig / lsEmpty).toFixed(2)}×`, 1.5);
  report('jp attachment ls, one-turn conversation without resources', `${aEmpty.toFixed(1)} ms`);
  report(`jp attachment ls, ${turns}-turn conversation`, `${aBig.toFixed(1)} ms  ${(aBig / aEmpty).toFixed(2)}×`, 1.5);
  if (lsBig / lsEmpty > 1.5) over.push('conversation ls');
  if (aBig / aEmpty > 1.5) over.push('attachment ls');
}

/** Bytes of resource content in an Anthropic request: documents, images, and tool results. */
function resourceBytes(request) {
  let total = 0;
  for (const message of request.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'document' || block.type === 'image') total += Buffer.byteLength(block.source.data ?? '');
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        for (const part of block.content) if (part.type === 'text') total += Buffer.byteLength(part.text);
      }
    }
  }
  return total;
}

function wire() {
  const ws = newWorkspace('wire');
  const files = ['a.ts', 'b.ts', 'c.md', 'd.json', 'e.txt'];
  const fill = (name, salt) => {
    let text = '';
    for (let i = 0; text.length < 20 * 1024; i++) text += `${name} ${salt} line ${i}: the kind of text a programmer attaches\n`;
    writeFileSync(path.join(ws, name), text);
  };
  for (const name of files) fill(name, 'v1');
  const uri = (name) => `file://${ws}/${name}`;
  const totals = { on: 0, off: 0, onTotal: 0, offTotal: 0 };
  const started = Date.now();
  for (let turn = 0; turn < 30; turn++) {
    // Every third turn re-attaches two unchanged files; turn 12 also re-attaches a.ts, which turn
    // 10 edited and refreshed (so its content was last given by that tool call).
    const attach = turn === 0 ? files : turn % 3 === 0 ? [files[turn % 5], files[(turn + 1) % 5]] : [];
    if (turn === 12) attach.push('a.ts');
    if (turn === 10) fill('a.ts', 'v2');
    // Every fifth turn refreshes a file: b.ts (unchanged) at 5, 15, 25; a.ts at 10 (changed) and 20 (unchanged).
    const refresh = turn > 0 && turn % 5 === 0 ? [turn % 10 === 0 ? 'a.ts' : 'b.ts'] : [];
    const directives = refresh.map((name) => `!tool refresh_resource {"uri":"${uri(name)}"}`);
    const text = [`turn ${turn}: what changed?`, ...directives].join('\n');
    const attachArgs = attach.flatMap((name) => ['--attach', name]);
    const first = turn === 0 ? ['--new', '-m', 'echo'] : [];
    if (turn > 0) {
      for (const [mode, flag] of [['on', 'true'], ['off', 'false']]) {
        const out = jpSync(ws, ['-c', `conversation.deduplication.enabled=${flag}`, 'query', '--explain', '-m', 'anthropic/claude-bench', ...attachArgs, text]);
        const request = JSON.parse(out).request;
        totals[mode] += resourceBytes(request);
        totals[`${mode}Total`] += Buffer.byteLength(JSON.stringify(request));
      }
    }
    jpSync(ws, ['query', ...first, '--allow-tools', ...attachArgs, text]);
  }
  console.log(`\n3. 30-turn scripted session, requests of turns 1–29 as --explain builds them (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  report('resource bytes sent, deduplication off', `${(totals.off / 1024).toFixed(0)} KiB`);
  report('resource bytes sent, deduplication on', `${(totals.on / 1024).toFixed(0)} KiB  ${(totals.on / totals.off).toFixed(3)}× of off`);
  report('whole request bytes, deduplication off', `${(totals.offTotal / 1024).toFixed(0)} KiB`);
  report('whole request bytes, deduplication on', `${(totals.onTotal / 1024).toFixed(0)} KiB  ${(totals.onTotal / totals.offTotal).toFixed(3)}× of off`);
}

try {
  console.log(`blob store benchmarks (Node ${process.version}, ${jp})`);
  if (only.has('growth')) growth();
  if (only.has('listing')) listing();
  if (only.has('wire')) wire();
  if (check && over.length > 0) {
    console.log(`over budget: ${over.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  if (args.includes('--keep')) console.log(`kept ${root}`);
  else rmSync(root, { recursive: true, force: true });
}
