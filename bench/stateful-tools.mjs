#!/usr/bin/env node
// Stateful tools (RFD 019), measured in this run, in this process:
//
// 1. fetch latency: a child prints a line carrying the wall-clock time it wrote it; a
//    `fetch(wait_ms)` already waiting returns it. Latency = return time - write time. The
//    baseline is the same child read by a bare `data` listener (what the pipe alone costs).
//    Budget: p95 at most 50 ms.
// 2. registry overhead on a one-shot tool call: a one-shot local tool called as a query calls it
//    now (tools from selectTools over a config that also declares a stateful tool, a handle
//    registry made and closed around the call) against the tool made directly and called with no
//    registry. Runs interleaved; medians. Budget: at most 1.05×.
//
//   node --import tsx bench/stateful-tools.mjs [--runs N] [--no-check]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigSchema } from '../apps/jp/src/config/config-schema.ts';
import { createLocalTool } from '../apps/jp/src/tools/local-tool.ts';
import { selectTools } from '../apps/jp/src/tools/select-tools.ts';
import { HandleRegistry } from '../apps/jp/src/tools/stateful/handle-registry.ts';
import { spawnProcessHandle } from '../apps/jp/src/tools/stateful/process-handle.ts';
import { median, numberOption } from './bench-args.mjs';

const args = process.argv.slice(2);
const runs = numberOption('--runs', 40);
const check = !args.includes('--no-check');
const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE_TOOL = path.resolve(here, '../apps/jp/src/tools/__fixtures__/fixture-tool.mjs');

const now = () => performance.timeOrigin + performance.now();
const p95 = (values) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Writes one line per input line read, stamped with the time of the write (shared clock).
const STAMPER = `require('node:readline').createInterface({ input: process.stdin }).on('line', () => process.stdout.write('t ' + (performance.timeOrigin + performance.now()) + '\\n'));`;
const stampOf = (text) => Number(/t (\d+(?:\.\d+)?)/.exec(text)[1]);

async function fetchLatency() {
  const handle = await spawnProcessHandle('bench', {
    command: process.execPath,
    args: ['-e', STAMPER],
    cwd: process.cwd(),
    env: process.env,
    arguments: {},
    graceMs: 1000,
    bufferBytes: 1024 * 1024,
    askUser: async () => undefined,
    warn: () => {},
  });
  const samples = [];
  try {
    for (let i = 0; i < runs + 3; i++) {
      const waiting = handle.fetch(30_000);
      await handle.apply('go');
      const reply = await waiting;
      const returned = now();
      const text = reply.content.map((block) => block.text ?? '').join('');
      if (i >= 3) samples.push(returned - stampOf(text));
      await sleep(20);
    }
  } finally {
    await handle.abort();
  }
  return samples;
}

async function pipeLatency() {
  const child = spawn(process.execPath, ['-e', STAMPER], { stdio: ['pipe', 'pipe', 'ignore'] });
  const samples = [];
  for (let i = 0; i < runs + 3; i++) {
    const line = new Promise((resolve) => child.stdout.once('data', (chunk) => resolve([now(), chunk.toString()])));
    child.stdin.write('go\n');
    const [at, text] = await line;
    if (i >= 3) samples.push(at - stampOf(text));
    await sleep(20);
  }
  child.kill();
  return samples;
}

async function oneShotOverhead() {
  const ws = mkdtempSync(path.join(tmpdir(), 'jp-bench-stateful-'));
  const tool = { command: process.execPath, args: [FIXTURE_TOOL, 'text'], description: 'fixture', run: 'unattended' };
  const config = ConfigSchema.parse({ tools: { check: tool, dev: { ...tool, stateful: 'process' } } });
  const output = { warn() {}, note() {} };
  const ctx = { workspaceRoot: ws, output, interactive: false, prompt: (fn) => fn(), events: [] };
  const direct = createLocalTool('check', config.tools.check);
  const withRegistry = async () => {
    const handles = new HandleRegistry(config.assistant.max_tool_handles);
    const tools = selectTools({ config, events: [], mcpTools: [], only: [], without: [] });
    const result = await tools.find((t) => t.definition.name === 'check').call({}, { ...ctx, handles });
    await handles.closeAll();
    return result;
  };
  const without = [];
  const registry = [];
  try {
    for (let i = 0; i < runs + 3; i++) {
      const a = performance.now();
      const r1 = await direct.call({}, ctx);
      const b = performance.now();
      const r2 = await withRegistry();
      const c = performance.now();
      if (r1.isError || r2.isError) throw new Error('the fixture tool failed');
      if (i >= 3) {
        without.push(b - a);
        registry.push(c - b);
      }
    }
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
  return { without: median(without), registry: median(registry) };
}

const latency = await fetchLatency();
const pipe = await pipeLatency();
const overhead = await oneShotOverhead();

console.log(`stateful tools, ${runs} runs (Node ${process.version})`);
console.log(`fetch(wait_ms) latency, child write → reply   median ${median(latency).toFixed(2)} ms  p95 ${p95(latency).toFixed(2)} ms  (budget p95 ≤ 50 ms)`);
console.log(`  baseline: bare pipe data event               median ${median(pipe).toFixed(2)} ms  p95 ${p95(pipe).toFixed(2)} ms`);
const ratio = overhead.registry / overhead.without;
console.log(`one-shot tool call without registry            median ${overhead.without.toFixed(2)} ms`);
console.log(`one-shot tool call with registry               median ${overhead.registry.toFixed(2)} ms  ${ratio.toFixed(3)}×  (budget 1.05×)`);
const over = [];
if (p95(latency) > 50) over.push('fetch latency');
if (ratio > 1.05) over.push('registry overhead');
if (check && over.length > 0) {
  console.log(`over budget: ${over.join(', ')}`);
  process.exitCode = 1;
}
