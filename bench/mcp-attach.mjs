#!/usr/bin/env node
// What attaching an MCP server's resource costs jp beyond the server itself (issue 35, "MCP attach
// overhead"). For each real server jp is tested against, in one run, interleaved:
//   with     `jp query --new -m echo --attach mcp+<name>+<uri> x`
//   without  the same query attaching a small file instead (jp's own cost)
//   bare     a fresh `node` running the official client SDK jp ships: spawn the server, initialize,
//            read the same resource, close, exit
//   node     `node -e 0` (this machine's Node start, CA bundle included)
// overhead = the median over runs of (with − without) − what the bare client spends from its SDK
// loaded to the server closed, each run's three taken together: what jp adds to a bare client's
// start, work and close, its own SDK load included (the bare client's load is printed beside). Budget: ≤ 30 ms per server. Prints medians; exits 1 on a missed budget unless --no-check.
//
//   node bench/mcp-attach.mjs [--runs N] [--only NAME] [--no-check]     (build first)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, numberOption, option } from './bench-args.mjs';

const args = process.argv.slice(2);
const runs = numberOption('--runs', 9);
const only = option('--only', undefined);
const check = !args.includes('--no-check');
const BUDGET_MS = 30;

const here = path.dirname(fileURLToPath(import.meta.url));
const app = path.resolve(here, '../apps/jp');
const jp = process.env.JP_BIN ?? path.join(app, 'dist', 'jp.js');
const packageDir = (name) => path.join(app, 'node_modules', name);
const fixture = (name) => path.join(app, 'test', 'fixtures', 'mcp-servers', name);
const root = mkdtempSync(path.join(tmpdir(), 'jp-bench-mcp-'));
const env = { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config'), NO_COLOR: '1' };

// The servers of apps/jp/test/mcp-servers-in-the-wild.e2e.test.ts that serve resources.
const SERVERS = [
  { name: 'everything', args: [path.join(packageDir('@modelcontextprotocol/server-everything'), 'dist', 'index.js'), 'stdio'], uri: 'demo://resource/static/document/architecture.md' },
  { name: 'everything2025', args: [path.join(packageDir('server-everything-2025'), 'dist', 'index.js'), 'stdio'], uri: 'test://static/resource/1' },
  { name: 'memory', args: [path.join(packageDir('@modelcontextprotocol/server-memory'), 'dist', 'index.js')], env: { MEMORY_FILE_PATH: path.join(root, 'memory.jsonl') }, uri: 'memory://knowledge-graph' },
  { name: 'hello', args: [path.join(packageDir('mcp-hello-world'), 'build', 'stdio.js')], uri: 'greeting://jp' },
  { name: 'git', args: [path.join(packageDir('@cyanheads/git-mcp-server'), 'dist', 'index.js')], uri: 'git://working-directory' },
  { name: 'lowlevel', args: [fixture('sdk1-low-level-server.mjs')], uri: 'low://doc' },
  { name: 'modern', args: [fixture('sdk2-modern-server.mjs')], uri: 'modern://note', modern: true },
  { name: 'tmcp', args: [fixture('tmcp-server.mjs')], uri: 'tmcp://echo/word' },
  { name: 'fastmcp', args: [fixture('fastmcp-server.mjs')], uri: 'fast://note' },
].filter((server) => only === undefined || server.name === only);

// The bare client, with the very SDK build jp bundles (its ESM files, resolved from apps/jp). A
// server that speaks only the 2026 protocol gets the SDK's version negotiation, as it needs.
const requireFromApp = createRequire(path.join(app, 'package.json'));
const sdkDist = path.dirname(requireFromApp.resolve('@modelcontextprotocol/client'));
const bareClient = path.join(root, 'bare-client.mjs');
writeFileSync(
  bareClient,
  `const t0 = performance.now();
const [{ Client }, { StdioClientTransport, getDefaultEnvironment }] = await Promise.all([
  import(${JSON.stringify(pathToFileURL(path.join(sdkDist, 'index.mjs')).href)}),
  import(${JSON.stringify(pathToFileURL(path.join(sdkDist, 'stdio.mjs')).href)}),
]);
const t1 = performance.now();
const [uri, serverEnv, mode, command, ...serverArgs] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args: serverArgs, env: { ...getDefaultEnvironment(), ...JSON.parse(serverEnv) }, stderr: 'ignore' });
const client = new Client({ name: 'bare', version: '1.0.0' }, mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : undefined);
await client.connect(transport);
const read = await client.readResource({ uri });
if (read.contents.length === 0) throw new Error('nothing read');
const t2 = performance.now();
await client.close();
const t3 = performance.now();
process.stdout.write(JSON.stringify({ load: t1 - t0, lifecycle: t3 - t1, close: t3 - t2 }));
`,
);

/** Wall time of `argv`, and what it printed (the bare client prints its own phases). */
function time(argv, cwd) {
  const start = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} failed (${result.status}): ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

/** A workspace whose configuration has the one server, and a small file to attach instead. */
function workspaceFor(server) {
  const ws = path.join(root, server.name);
  mkdirSync(ws, { recursive: true });
  execFileSync(process.execPath, [jp, 'init'], { cwd: ws, env, stdio: 'ignore' });
  const serverEnv = Object.entries(server.env ?? {}).map(([key, value]) => `${key} = ${JSON.stringify(value)}`);
  writeFileSync(
    path.join(ws, '.jp', 'config.toml'),
    `[mcp.${server.name}]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify(server.args)}\nenv = { ${serverEnv.join(', ')} }\nstartup_timeout_secs = 30\n`,
  );
  writeFileSync(path.join(ws, 'small.txt'), 'a small file\n');
  if (server.name === 'git') {
    execFileSync('git', ['init', '-q'], { cwd: ws });
  }
  return ws;
}

try {
  const rows = [];
  for (const server of SERVERS) {
    const ws = workspaceFor(server);
    const query = (attach) => [process.execPath, jp, 'query', '--new', '-m', 'echo', '--attach', attach, 'x'];
    const cases = [
      query(`mcp+${server.name}+${server.uri}`),
      query('small.txt'),
      [process.execPath, bareClient, server.uri, JSON.stringify(server.env ?? {}), server.modern ? 'auto' : 'legacy', process.execPath, ...server.args],
      [process.execPath, '-e', '0'],
    ];
    const samples = cases.map(() => []);
    const phases = [];
    cases.forEach((argv) => time(argv, ws)); // warm the page cache
    for (let i = 0; i < runs; i++) {
      cases.forEach((argv, k) => {
        const { ms, stdout } = time(argv, ws);
        samples[k].push(ms);
        if (k === 2) phases.push(JSON.parse(stdout));
      });
    }
    const [withMcp, without, bare, node] = samples.map(median);
    const lifecycle = median(phases.map((phase) => phase.lifecycle));
    const load = median(phases.map((phase) => phase.load));
    const close = median(phases.map((phase) => phase.close));
    // Per run, paired: what jp's attach took beyond its own query, less what the bare client spent
    // starting the server, reading and closing. The median of the pairs is steadier than a
    // difference of medians: a run slowed by the machine slows both sides.
    const paired = samples[0].map((ms, i) => ms - samples[1][i] - phases[i].lifecycle);
    const overhead = median(paired);
    const sorted = [...paired].sort((a, b) => a - b);
    const quartiles = [sorted[Math.floor(sorted.length / 4)], sorted[Math.floor((3 * sorted.length) / 4)]];
    rows.push({ name: server.name, withMcp, without, bare, node, overhead });
    console.log(
      `${server.name.padEnd(15)} jp with ${withMcp.toFixed(0).padStart(5)} ms, without ${without.toFixed(0).padStart(4)} ms: +${(withMcp - without).toFixed(0).padStart(4)} ms; bare client: start, read, close ${lifecycle.toFixed(0).padStart(4)} ms (close ${close.toFixed(0)}), SDK load ${load.toFixed(0)} ms, process ${bare.toFixed(0)} ms (node -e 0 ${node.toFixed(0)}); overhead ${overhead >= 0 ? '+' : ''}${overhead.toFixed(0)} ms, quartiles ${quartiles.map((q) => q.toFixed(0)).join(' … ')} (budget ${BUDGET_MS})`,
    );
  }
  const missed = rows.filter((row) => row.overhead > BUDGET_MS);
  console.log(`medians of ${runs} runs (Node ${process.version}); overhead = the median over runs of (jp with − jp without) − the bare client's start, read and close`);
  if (missed.length > 0) {
    console.log(`over budget: ${missed.map((row) => `${row.name} +${row.overhead.toFixed(0)} ms`).join(', ')}`);
    if (check) process.exitCode = 1;
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
