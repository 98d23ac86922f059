#!/usr/bin/env node
// `jp mcp serve` snapshot benchmark: reading a 10 MB stored snapshot over MCP (official SDK client
// over stdio) against `cat` of its blob file into this process, plus one MCP round trip measured
// in the same process with a tiny read (a 6-byte snapshot). Budget: read ≤ 2 × cat + round trip.
// A text snapshot (`text`) and a binary one (`blob`, base64 on the wire) are both timed.
// The client reads messages of up to 64 MiB: the SDKs' stdio default, 10 MiB, is less than one
// 10 MiB snapshot's message (RFD 021, "Large snapshots"). Exits 1 over budget unless --no-check.
//
//   node bench/mcp-serve-read.mjs [--runs N] [--mb N] [--no-check]
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const runs = option('--runs', 15);
const mb = option('--mb', 10);
const check = !args.includes('--no-check');

const here = path.dirname(fileURLToPath(import.meta.url));
const jp = process.env.JP_BIN ?? path.resolve(here, '../apps/jp/dist/jp.js');
const requireFromApp = createRequire(path.resolve(here, '../apps/jp/package.json'));
const { Client } = await import(requireFromApp.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(requireFromApp.resolve('@modelcontextprotocol/sdk/client/stdio.js'));

const root = mkdtempSync(path.join(tmpdir(), 'jp-bench-mcp-read-'));
const ws = path.join(root, 'ws');
const env = { PATH: process.env.PATH, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config') };
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** `cat FILE` into this process, every byte read. */
function cat(file) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn('cat', [file], { stdio: ['ignore', 'pipe', 'inherit'] });
    let bytes = 0;
    child.stdout.on('data', (chunk) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ ms: performance.now() - start, bytes }) : reject(new Error(`cat exited ${code}`))));
  });
}

let client;
try {
  mkdirSync(ws);
  execFileSync(process.execPath, [jp, 'init', ws], { env, stdio: 'ignore' });
  // Text: lines of source-like ASCII; binary: random bytes.
  const line = 'export function add(a: number, b: number): number { return a + b; } // padding padding\n';
  const text = Buffer.from(line.repeat(Math.ceil((mb * 1024 * 1024) / line.length))).subarray(0, mb * 1024 * 1024);
  const binary = randomBytes(mb * 1024 * 1024);
  const tiny = Buffer.from('tiny!\n');
  writeFileSync(path.join(ws, 'big.ts'), text);
  writeFileSync(path.join(ws, 'big.bin'), binary);
  writeFileSync(path.join(ws, 'tiny.txt'), tiny);
  const out = execFileSync(process.execPath, [jp, 'query', '-c', 'conversation.attachment.size_policy=allow', '--new', '-m', 'echo', '-a', 'big.ts', '-a', 'big.bin', '-a', 'tiny.txt', 'x'], { cwd: ws, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (!out.includes(sha(text))) throw new Error('the text snapshot was not stored');
  const id = execFileSync(process.execPath, [jp, '-w', ws, 'conversation', 'ls', '-F', 'json'], { env, encoding: 'utf8' });
  const conversation = JSON.parse(id).conversations?.[0]?.id ?? JSON.parse(id)[0]?.id;
  if (typeof conversation !== 'string') throw new Error(`no conversation id in ${id.slice(0, 200)}`);
  const blob = (bytes) => path.join(ws, '.jp', 'blobs', sha(bytes).slice(0, 2), sha(bytes));

  client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [jp, 'mcp', 'serve', '-w', ws], env, stderr: 'inherit', maxBufferSize: 64 * 1024 * 1024 }));
  const read = async (bytes) => {
    const start = performance.now();
    const result = await client.readResource({ uri: `jp://conversation/${conversation}/resource/${sha(bytes)}` });
    const ms = performance.now() - start;
    const contents = result.contents[0];
    const got = contents.text !== undefined ? Buffer.from(contents.text, 'utf8') : Buffer.from(contents.blob, 'base64');
    return { ms, ok: got.length === bytes.length };
  };
  for (const bytes of [text, binary, tiny]) if (!(await read(bytes)).ok) throw new Error('a snapshot came back with other bytes');

  const samples = { catText: [], catBinary: [], readText: [], readBinary: [], roundTrip: [] };
  for (let run = 0; run < runs; run++) {
    samples.catText.push((await cat(blob(text))).ms);
    samples.catBinary.push((await cat(blob(binary))).ms);
    samples.roundTrip.push((await read(tiny)).ms);
    samples.readText.push((await read(text)).ms);
    samples.readBinary.push((await read(binary)).ms);
  }
  const m = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  console.log(`snapshot: ${mb} MB, runs: ${runs} (medians)`);
  console.log(`tiny read (one MCP round trip)  ${m.roundTrip.toFixed(2)} ms`);
  let over = false;
  for (const [kind, readMs, catMs] of [
    ['text', m.readText, m.catText],
    ['binary', m.readBinary, m.catBinary],
  ]) {
    const budget = 2 * catMs + m.roundTrip;
    console.log(`${kind.padEnd(6)} read ${readMs.toFixed(1)} ms, cat ${catMs.toFixed(1)} ms, budget 2×cat + round trip ${budget.toFixed(1)} ms, ratio ${(readMs / budget).toFixed(2)}, read/cat ${(readMs / catMs).toFixed(2)}`);
    if (readMs > budget) over = true;
  }
  if (check && over) {
    console.error('over budget');
    process.exitCode = 1;
  }
} finally {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
}
