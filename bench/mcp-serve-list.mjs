#!/usr/bin/env node
// `jp mcp serve` listing benchmark: `resources/list` over a workspace of N conversations, every
// page walked, timed from the client (official SDK over stdio) after initialize. The budget is
// absolute. The conversations are written in the store's on-disk form (metadata.json,
// base-config.json, one turn in events.jsonl), as `jp query` leaves them, which is much faster
// than running a thousand queries. Exits 1 over budget unless --no-check is given.
//
//   node bench/mcp-serve-list.mjs [--runs N] [--conversations N] [--no-check]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, numberOption } from './bench-args.mjs';

const args = process.argv.slice(2);
const runs = numberOption('--runs', 20);
const conversations = numberOption('--conversations', 1000);
const check = !args.includes('--no-check');
const BUDGET_MS = 150;

const here = path.dirname(fileURLToPath(import.meta.url));
const jp = process.env.JP_BIN ?? path.resolve(here, '../apps/jp/dist/jp.js');
const requireFromApp = createRequire(path.resolve(here, '../apps/jp/package.json'));
const { Client } = await import(requireFromApp.resolve('@modelcontextprotocol/sdk/client/index.js'));
const { StdioClientTransport } = await import(requireFromApp.resolve('@modelcontextprotocol/sdk/client/stdio.js'));

const root = mkdtempSync(path.join(tmpdir(), 'jp-bench-mcp-list-'));
const ws = path.join(root, 'ws');
const env = { PATH: process.env.PATH, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config') };

/** A conversation id as jp makes them: base-36 time, a dash, random hex. */
const idAt = (i) => `${(Date.UTC(2026, 0, 1) + i * 1000).toString(36)}-${i.toString(16).padStart(5, '0')}`;

let client;
try {
  mkdirSync(ws);
  execFileSync(process.execPath, [jp, 'init', ws], { env, stdio: 'ignore' });
  for (let i = 0; i < conversations; i++) {
    const dir = path.join(ws, '.jp', 'conversations', idAt(i));
    mkdirSync(dir, { recursive: true });
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify({ title: `question ${i}`, createdAt: at, lastActivityAt: at, turnCount: 1 }, null, 2));
    writeFileSync(path.join(dir, 'base-config.json'), '{}\n');
    const events = [
      { type: 'turn_start', timestamp: at },
      { type: 'chat_request', timestamp: at, content: `question ${i}`, resources: [] },
      { type: 'chat_response', timestamp: at, message: `answer ${i}` },
    ];
    writeFileSync(path.join(dir, 'events.jsonl'), `${events.map((event) => JSON.stringify(event)).join('\n')}\n`);
  }
  client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [jp, 'mcp', 'serve', '-w', ws], env }));

  const listAll = async () => {
    let cursor;
    let count = 0;
    let pages = 0;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      count += page.resources.length;
      pages++;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { count, pages };
  };
  const first = await listAll();
  if (first.count !== conversations) throw new Error(`listed ${first.count} of ${conversations} conversations`);
  const all = [];
  const firstPage = [];
  const ping = [];
  for (let run = 0; run < runs; run++) {
    let start = performance.now();
    await listAll();
    all.push(performance.now() - start);
    start = performance.now();
    await client.listResources({});
    firstPage.push(performance.now() - start);
    start = performance.now();
    await client.ping();
    ping.push(performance.now() - start);
  }
  const total = median(all);
  console.log(`conversations: ${conversations}, pages: ${first.pages}, runs: ${runs} (medians)`);
  console.log(`resources/list, every page  ${total.toFixed(1)} ms  (budget ${BUDGET_MS} ms, ratio ${(total / BUDGET_MS).toFixed(2)})`);
  console.log(`resources/list, first page  ${median(firstPage).toFixed(1)} ms`);
  console.log(`ping round trip             ${median(ping).toFixed(2)} ms`);
  if (check && total > BUDGET_MS) {
    console.error(`over budget: ${total.toFixed(1)} ms > ${BUDGET_MS} ms`);
    process.exitCode = 1;
  }
} finally {
  await client?.close();
  rmSync(root, { recursive: true, force: true });
}
