// Fetch latency of a protocol handle: how long after the tool writes a response a waiting
// `fetch(wait_ms)` returns it. Goal (issue J): within 50 ms.
//
//   node --import tsx bench/stateful-protocol-latency.ts [count] [interval_ms]
//
// The fixture tool writes one response every interval, stamped with the wall-clock time it was
// written (performance.timeOrigin + now(), comparable across processes on one machine); the bench
// is always blocked in fetch(30 000) when it arrives, and records the difference on return.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnProtocolHandle } from '../apps/jp/src/tools/stateful/protocol-handle.ts';

const count = Number(process.argv[2] ?? 200);
const interval = Number(process.argv[3] ?? 25);
const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '../apps/jp/src/tools/stateful/__fixtures__/stage-tool.mjs');
const handle = await spawnProtocolHandle('bench', {
  command: process.execPath,
  args: [fixture],
  cwd: process.cwd(),
  env: process.env,
  arguments: { scenario: 'ticker', count, interval_ms: interval },
  graceMs: 1000,
  bufferBytes: 1024 * 1024,
  askUser: async () => undefined,
  warn: (message) => console.error(message),
});
const latencies: number[] = [];
let merged = 0;
for (;;) {
  const reply = await handle.fetch(30_000);
  const now = performance.timeOrigin + performance.now();
  const stamps = reply.content.flatMap((block) => (block.type === 'text' && /^\d+(\.\d+)?$/.test(block.text) ? [Number(block.text)] : []));
  if (stamps.length > 1) merged += stamps.length - 1;
  // The first response of a reply is the one the fetch waited for.
  if (stamps.length > 0) latencies.push(now - stamps[0]!);
  if (reply.status === 'stopped') break;
}
await handle.abort();
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
console.log(`fetch latency over ${latencies.length} responses (one every ${interval} ms): p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`);
if (merged > 0) console.log(`${merged} responses arrived while no fetch was waiting (merged into a reply)`);
