// `jp conversation ls` with the derived-activity cache (.jp/local/activity.json, RFD 029) missing
// against present, alternating, in the workspace given (e.g. the `big` one `bench/blobs.mjs --keep`
// leaves). Build first.
//   node bench/conversation-ls-cold.mjs DIR [--runs N]
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: node bench/conversation-ls-cold.mjs DIR [--runs N]');
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 9;
const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'jp', 'dist', 'jp.js');
const env = { PATH: process.env.PATH, HOME: path.join(dir, '.bench-home'), NO_COLOR: '1' };
const time = (f) => {
  const start = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - start) / 1e6;
};
const ls = () => execFileSync(process.execPath, [bin, 'conversation', 'ls'], { cwd: dir, env, stdio: 'ignore' });
const cold = [];
const warm = [];
for (let i = 0; i < runs; i++) {
  rmSync(path.join(dir, '.jp', 'local', 'activity.json'), { force: true });
  cold.push(time(ls));
  warm.push(time(ls));
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log(`jp conversation ls, cache missing ${median(cold).toFixed(1)} ms, present ${median(warm).toFixed(1)} ms: ${(median(cold) / median(warm)).toFixed(2)}×`);
