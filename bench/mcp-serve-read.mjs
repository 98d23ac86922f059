#!/usr/bin/env node
// `jp mcp serve` snapshot benchmark: reading a 10 MB stored snapshot over MCP (official SDK client
// over stdio) against `cat` of its blob file into this process, plus one MCP round trip measured
// in the same process with a tiny read (a 6-byte snapshot). Budget: read ≤ 2 × cat + round trip.
// A text snapshot (`text`) and a binary one (`blob`, base64 on the wire) are both timed, with the
// official SDK client and with a minimal line client (what the server itself costs).
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
import { median, numberOption } from './bench-args.mjs';

const args = process.argv.slice(2);
const runs = numberOption('--runs', 15);
const mb = numberOption('--mb', 10);
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

/**
 * A minimal JSON-RPC client over the server's stdio that keeps chunks until a newline arrives and
 * parses each message once: what the server costs without the SDK client's buffering, which
 * concatenates its whole buffer on every chunk.
 */
function lineClient(argv) {
  const child = spawn(process.execPath, argv, { env, stdio: ['pipe', 'pipe', 'inherit'] });
  let chunks = [];
  const pending = new Map();
  let next = 0;
  child.stdout.on('data', (chunk) => {
    if (!chunk.includes(10)) return void chunks.push(chunk);
    chunks.push(chunk);
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    chunks = [Buffer.from(lines.pop())];
    for (const line of lines) {
      if (line === '') continue;
      const message = JSON.parse(line);
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  return {
    async open() {
      await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } });
      child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    },
    request,
    close: () => child.stdin.end(),
  };
}

let client;
let raw;
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

  raw = lineClient([jp, 'mcp', 'serve', '-w', ws]);
  await raw.open();
  const rawRead = async (bytes) => {
    const start = performance.now();
    const message = await raw.request('resources/read', { uri: `jp://conversation/${conversation}/resource/${sha(bytes)}` });
    if (message.result === undefined) throw new Error(JSON.stringify(message.error));
    return { ms: performance.now() - start };
  };

  const samples = { catText: [], catBinary: [], sdkTiny: [], sdkText: [], sdkBinary: [], lineTiny: [], lineText: [], lineBinary: [] };
  for (let run = 0; run < runs; run++) {
    samples.catText.push((await cat(blob(text))).ms);
    samples.catBinary.push((await cat(blob(binary))).ms);
    samples.sdkTiny.push((await read(tiny)).ms);
    samples.sdkText.push((await read(text)).ms);
    samples.sdkBinary.push((await read(binary)).ms);
    samples.lineTiny.push((await rawRead(tiny)).ms);
    samples.lineText.push((await rawRead(text)).ms);
    samples.lineBinary.push((await rawRead(binary)).ms);
  }
  const m = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
  console.log(`snapshot: ${mb} MiB, runs: ${runs} (medians)`);
  console.log(`cat of the blob: text ${m.catText.toFixed(1)} ms, binary ${m.catBinary.toFixed(1)} ms`);
  let over = false;
  for (const [clientName, tinyMs, textMs, binaryMs] of [
    ['official SDK client', m.sdkTiny, m.sdkText, m.sdkBinary],
    ['line client', m.lineTiny, m.lineText, m.lineBinary],
  ]) {
    console.log(`${clientName}: tiny read (one round trip) ${tinyMs.toFixed(2)} ms`);
    for (const [kind, readMs, catMs] of [
      ['text', textMs, m.catText],
      ['binary', binaryMs, m.catBinary],
    ]) {
      const budget = 2 * catMs + tinyMs;
      console.log(`  ${kind.padEnd(6)} read ${readMs.toFixed(1)} ms, budget 2×cat + round trip ${budget.toFixed(1)} ms, ratio ${(readMs / budget).toFixed(2)}`);
      if (readMs > budget) over = true;
    }
  }
  if (check && over) {
    console.error('over budget');
    process.exitCode = 1;
  }
} finally {
  await client?.close();
  raw?.close();
  rmSync(root, { recursive: true, force: true });
}
