// What the model catalog costs a query (issue U: "Catalog lookup adds ≤ 2 ms to jp q, cached
// listing present"). Each sample is a fresh process, as a query is: it loads the catalog's modules,
// then times the first `catalogModel` call, which reads and parses the provider's cached listing.
// Listings are the size real ones are: Anthropic's ~20 models, OpenRouter's 600.
//
//   node --import tsx bench/catalog-lookup.ts [--runs N]
//
// The baseline is reading and parsing the whole OpenRouter listing in the same process, which the
// lookup avoids (it parses one line); budget: the OpenRouter lookup ≤ 2 ms.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error the shared bench helpers are plain JavaScript without declarations
import { median, numberOption } from './bench-args.mjs';

const runs = numberOption('--runs', 15);
const here = path.dirname(fileURLToPath(import.meta.url));
const cache = mkdtempSync(path.join(tmpdir(), 'jp-catalog-bench-'));
const dir = path.join(cache, 'jp', 'models');
mkdirSync(dir, { recursive: true });

const facts = (i: number) => ({ contextWindow: 100_000 + i, maxOutputTokens: 8192, reasoning: { efforts: ['low', 'medium', 'high'] }, structuredOutput: true, imageInput: i % 2 === 0, pdfInput: false, price: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1 } });
/** The cache's own format: a header line, then one line per model. */
const write = (provider: string, { fetchedAt, baseUrl, models }: ReturnType<typeof listing>) =>
  writeFileSync(path.join(dir, `${provider}.jsonl`), [JSON.stringify({ fetchedAt, baseUrl }), ...Object.entries(models).map(([id, f]) => JSON.stringify({ id, facts: f }))].join('\n') + '\n');
const listing = (baseUrl: string, ids: string[]) => ({ fetchedAt: '2026-12-02T00:00:00.000Z', baseUrl, models: Object.fromEntries(ids.map((id, i) => [id, facts(i)])) });
write('anthropic', (listing('https://api.anthropic.com', Array.from({ length: 20 }, (_, i) => (i === 7 ? 'claude-opus-5-5' : `claude-model-${i}`)))));
write('openrouter', (listing('https://openrouter.ai/api/v1', Array.from({ length: 600 }, (_, i) => (i === 300 ? 'anthropic/claude-opus-5.5' : `vendor-${i}/model-${i}`)))));

const probe = `
import { readFileSync } from 'node:fs';
import { catalogModel } from ${JSON.stringify(path.join(here, '../apps/jp/src/models/model-catalog.ts'))};
const file = ${JSON.stringify(path.join(dir, 'openrouter.jsonl'))};
let t = performance.now(); readFileSync(file, 'utf8').split('\\n').map((line) => line && JSON.parse(line)); const floor = performance.now() - t;
t = performance.now(); catalogModel({ providers: {} }, 'anthropic', 'claude-opus-5-5'); const anthropic = performance.now() - t;
t = performance.now(); catalogModel({ providers: {} }, 'openrouter', 'anthropic/claude-opus-5.5'); const openrouter = performance.now() - t;
t = performance.now(); catalogModel({ providers: {} }, 'openai', 'gpt-5.5'); const tableOnly = performance.now() - t;
console.log(JSON.stringify({ floor, anthropic, openrouter, tableOnly }));
`;
const samples: Array<Record<string, number>> = [];
for (let i = 0; i < runs; i++) {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { env: { ...process.env, XDG_CACHE_HOME: cache }, encoding: 'utf8' });
  samples.push(JSON.parse(out.trim().split('\n').at(-1)!));
}
rmSync(cache, { recursive: true, force: true });
const ms = (key: string) => median(samples.map((sample) => sample[key]!) as number[]).toFixed(2);
console.log(`catalog lookup, first call in a fresh process (median of ${runs}):`);
console.log(`  read + parse the whole 600-model OpenRouter listing (floor): ${ms('floor')} ms`);
console.log(`  anthropic/claude-opus-5-5 (20-model listing cached):        ${ms('anthropic')} ms`);
console.log(`  openrouter/anthropic/claude-opus-5.5 (600 models cached):   ${ms('openrouter')} ms   budget 2 ms`);
console.log(`  openai/gpt-5.5 (no listing cached: the table only):         ${ms('tableOnly')} ms`);
const openrouter = Number(ms('openrouter'));
if (!process.argv.includes('--no-check') && openrouter > 2) {
  console.error(`over budget: ${openrouter} ms > 2 ms`);
  process.exit(1);
}
