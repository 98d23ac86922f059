// Rendering answers on a terminal (issue O), in process: a 2 000-line answer with 20 fenced code
// blocks, fed in 4-character pieces as a stream would bring it, written to /dev/null — printed raw
// (made visible, as jp prints an answer it does not render) against rendered as Markdown. Also the
// time from the first piece to the first byte written, raw against rendered, and the renderer
// module's load, which jp overlaps with the request (output/answer-writer.ts).
// Budgets: rendering takes ≤ 1.5× printing raw (issue 45); first rendered byte ≤ first raw byte + 5 ms.
//
//   node --import tsx bench/render.ts [--runs N] [--no-check]
import { closeSync, openSync, writeSync } from 'node:fs';
// @ts-expect-error the shared bench helpers are plain JavaScript without declarations
import { median, numberOption } from './bench-args.mjs';
import { visibleText } from '../apps/jp/src/output/terminal-text.ts';

const runs = numberOption('--runs', 15);
const check = !process.argv.includes('--no-check');

const loadStart = performance.now();
const { markdownWriter } = await import('../apps/jp/src/render/markdown-writer.ts');
const loadMs = performance.now() - loadStart;

/** A 2 000-line answer: prose, lists, a table, and 20 code blocks of 40 lines in four languages. */
function answer(): string {
  const lines: string[] = [];
  const languages = ['typescript', 'python', 'rust', 'bash'];
  for (let block = 0; block < 20; block += 1) {
    lines.push(`## Step ${block + 1}`, '', `We change **the parser** so that \`tokens\` are read once; see [the notes](https://example.test/${block}).`, '');
    for (let i = 0; i < 30; i += 1) lines.push(`- item ${i}: the *value* of \`x${i}\` is checked before it is used in the loop body`);
    lines.push('', '| name | kind | notes |', '|---|---|---|', ...Array.from({ length: 10 }, (_, i) => `| field${i} | string | read once, kept for the next call |`), '');
    lines.push(`\`\`\`${languages[block % 4]}`);
    for (let i = 0; i < 40; i += 1) lines.push(`const value${i} = compute("input ${i}", ${i} * 2); // keep ${i}`);
    lines.push('```', '');
  }
  return lines.slice(0, 2000).join('\n');
}

const text = answer();
const pieces = text.match(/[\s\S]{1,4}/g)!;
const sink = openSync('/dev/null', 'w');
const write = (out: string) => writeSync(sink, out);

function raw(): { total: number; first: number } {
  const start = performance.now();
  let first = -1;
  for (const piece of pieces) {
    write(visibleText(piece));
    if (first < 0) first = performance.now() - start;
  }
  return { total: performance.now() - start, first };
}

function rendered(): { total: number; first: number } {
  const start = performance.now();
  let first = -1;
  const writer = markdownWriter((out) => {
    write(out);
    if (first < 0) first = performance.now() - start;
  }, { width: 100, color: true });
  for (const piece of pieces) writer.write(piece);
  writer.end();
  return { total: performance.now() - start, first };
}

const rawRuns: Array<{ total: number; first: number }> = [];
const renderedRuns: Array<{ total: number; first: number }> = [];
for (let i = 0; i < runs + 2; i += 1) {
  const a = raw();
  const b = rendered();
  if (i >= 2) {
    rawRuns.push(a);
    renderedRuns.push(b);
  }
}
closeSync(sink);
const rawTotal = median(rawRuns.map((run) => run.total));
const renderedTotal = median(renderedRuns.map((run) => run.total));
const rawFirst = median(rawRuns.map((run) => run.first));
const renderedFirst = median(renderedRuns.map((run) => run.first));
console.log(`answer: ${text.split('\n').length} lines, ${(text.length / 1024).toFixed(0)} KB, ${pieces.length} pieces`);
console.log(`raw (made visible, written)     ${rawTotal.toFixed(1).padStart(7)} ms`);
console.log(`rendered                        ${renderedTotal.toFixed(1).padStart(7)} ms  +${((renderedTotal / rawTotal - 1) * 100).toFixed(0)} % (budget +50 %)`);
console.log(`first byte: raw ${rawFirst.toFixed(2)} ms, rendered ${renderedFirst.toFixed(2)} ms (budget raw + 5 ms)`);
console.log(`renderer module load (once, overlapped with the request): ${loadMs.toFixed(1)} ms`);
if (check && (renderedTotal > rawTotal * 1.5 || renderedFirst > rawFirst + 5)) process.exit(1);
