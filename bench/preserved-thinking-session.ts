// Issue V's session bench: 40 turns of one conversation on a preserved-thinking model (Claude
// Fable 5.1) against the strict Anthropic stand-in, through the built binary: three late
// attachments, a --no-tool turn, a compaction, a superseded file, and tool loops with interleaved
// thinking. Then the same session on Claude Mythos 5.1, a model of the same price and capabilities
// that runs no prefix check.
//
//   node --import tsx bench/preserved-thinking-session.ts [--no-check]
//
// It prints the stand-in's refusals (must be 0), every cache miss the stand-in reported with its
// cause (the deliberate rewrites — the compaction, the superseded stub — are expected; any other is
// jp's doing and must be 0), and each session's bill from the usage the stand-in reported (its
// prompt-cache model: reads of the longest cached prefix, writes at the breakpoints), priced by
// jp's catalog. The checked session's bill must be at most 2 % over the other's.
// BENCH_TRACE=1 prints each jp command and each call's usage on stderr; BENCH_DUMP=/tmp/x writes
// every request body the stand-in received to /tmp/x-<model>.json.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createStrictServer } from '../packages/test-server/src/index.ts';
import { lookupModel } from '../packages/providers/src/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const JP = process.env.JP_BIN ?? path.join(here, '../apps/jp/dist/jp.js');
const TURNS = 40;
/** The compaction's turn: before it, both sessions send the same history, thinking included. */
const FIRST_REWRITE = 24;

type Event = Record<string, any>;

/** What happens at each turn (before its query), and how the query is asked. */
function plan(turn: number): { attach?: string; noTool?: boolean; compactBefore?: boolean; change?: string; toolLoop?: boolean } {
  if (turn === 6) return { attach: 'a.txt' };
  if (turn === 14) return { attach: 'b.txt' };
  if (turn === 20) return { noTool: true };
  if (turn === FIRST_REWRITE) return { compactBefore: true };
  if (turn === 29) return { change: 'a.txt', attach: 'a.txt' };
  if (turn === 33) return { attach: 'c.txt' };
  if (turn === 9 || turn === 17 || turn === 27 || turn === 36) return { toolLoop: true };
  return {};
}

async function session(model: string): Promise<{ refused: number; misses: Array<{ turn: number; reason: string; cause: string }>; bill: number; billBefore: number; calls: number }> {
  const server = await createStrictServer({ vendor: 'anthropic' });
  const root = mkdtempSync(path.join(tmpdir(), 'jp-v-bench-'));
  const ws = path.join(root, 'project');
  mkdirSync(ws, { recursive: true });
  const env = { PATH: process.env.PATH, HOME: root, XDG_CONFIG_HOME: path.join(root, '.config'), XDG_CACHE_HOME: path.join(root, '.cache'), NO_COLOR: '1', ANTHROPIC_API_KEY: 'k' };
  // Asynchronously: the stand-in answers from this same process.
  const jp = async (args: string[]) => {
    if (process.env.BENCH_TRACE) console.error("jp", args.join(" "));
    // stdin closed: jp reads a piped stdin as part of the question, and would wait for its end.
    const run = promisify(execFile)(process.execPath, [JP, '-c', `providers.anthropic.base_url=${JSON.stringify(server.url)}`, '-c', 'conversation.history.superseded="omit"', ...args], { cwd: ws, env });
    run.child.stdin?.end();
    return (await run).stdout;
  };
  for (const [name, text] of Object.entries({ 'a.txt': 'alpha\n'.repeat(400), 'b.txt': 'beta\n'.repeat(600), 'c.txt': 'gamma\n'.repeat(300) })) writeFileSync(path.join(ws, name), text);
  await jp(['init']);
  let id: string | undefined;
  const causes = new Map<number, string>();
  for (let turn = 0; turn < TURNS; turn++) {
    const step = plan(turn);
    if (step.compactBefore) {
      await jp(['conversation', 'compact', id!, '--keep-last', '4', '--resources', '--force']);
      causes.set(turn, 'the compaction asked for before this turn');
    }
    if (step.change !== undefined) {
      writeFileSync(path.join(ws, step.change), 'alpha, changed\n'.repeat(400));
      causes.set(turn, `${step.change} attached again: its earlier snapshot is stubbed (conversation.history.superseded = "omit")`);
    }
    if (step.toolLoop) {
      const uri = pathToFileURL(path.join(ws, 'a.txt')).href;
      server.enqueueReply(
        { blocks: [{ type: 'thinking' }, { type: 'tool_use', id: `toolu_${turn}a`, name: 'refresh_resource', input: { uri } }, { type: 'thinking' }, { type: 'tool_use', id: `toolu_${turn}b`, name: 'refresh_resource', input: { uri } }], stopReason: 'tool_use' },
        { text: `read twice at ${turn}` },
      );
    }
    const args = ['-F', 'json', 'query', ...(id === undefined ? ['--new', '-m', `anthropic/${model}`] : ['--id', id]), ...(step.attach ? ['--attach', step.attach] : []), ...(step.noTool ? ['--no-tool', 'refresh_resource'] : []), `question ${turn}`];
    const last = JSON.parse((await jp(args)).trim().split('\n').at(-1)!);
    id = last.conversation as string;
  }
  const events: Event[] = readFileSync(path.join(ws, '.jp', 'conversations', id!, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const price = lookupModel('anthropic', model)!.price!;
  let turn = -1;
  let bill = 0;
  let billBefore = 0;
  let calls = 0;
  const misses: Array<{ turn: number; reason: string; cause: string }> = [];
  for (const event of events) {
    if (event.type === 'turn_start') turn += 1;
    if (event.type !== 'model_call') continue;
    calls += 1;
    const usage = event.usage ?? {};
    const read = usage.cacheReadTokens ?? 0;
    const write = usage.cacheWriteTokens ?? 0;
    const uncached = (usage.inputTokens ?? 0) - read - write;
    const cost = (uncached * price.input + write * (price.cacheWrite ?? price.input) + read * (price.cacheRead ?? price.input) + (usage.outputTokens ?? 0) * price.output) / 1e6;
    bill += cost;
    if (turn < FIRST_REWRITE) billBefore += cost;
    if (process.env.BENCH_TRACE) console.error(model, turn, JSON.stringify(usage));
    if (event.cache_miss !== undefined) misses.push({ turn, reason: event.cache_miss.reason, cause: causes.get(turn) ?? "jp's doing" });
  }
  if (process.env.BENCH_DUMP) writeFileSync(`${process.env.BENCH_DUMP}-${model}.json`, JSON.stringify(server.requests.map((request) => request.body)));
  const refused = server.rejections.length;
  await server.close();
  rmSync(root, { recursive: true, force: true });
  return { refused, misses, bill, billBefore, calls };
}

const bound = await session('claude-fable-5-1');
const free = await session('claude-mythos-5-1');
let failed = false;
for (const [name, run] of [['claude-fable-5-1 (prefix check)', bound], ['claude-mythos-5-1 (no prefix check)', free]] as const) {
  console.log(`${name}: ${TURNS} turns, ${run.calls} model calls, ${run.refused} refused, bill $${run.bill.toFixed(4)}`);
  for (const miss of run.misses) console.log(`  turn ${miss.turn}: cache miss ${miss.reason}: ${miss.cause}`);
  if (run.refused > 0 || run.misses.some((miss) => miss.cause === "jp's doing")) failed = true;
}
// The budget is one-sided: dropping thinking on the model that checks prefixes must not cost more
// than 2 % over keeping it on the model that does not. Dropped thinking is never sent again, so the
// checked session is usually the cheaper one; how much cheaper is printed, not judged.
const difference = (bound.bill - free.bill) / free.bill;
const before = (bound.billBefore - free.billBefore) / free.billBefore;
console.log(`bill of turns 0–${FIRST_REWRITE - 1} (same history on both): prefix check ${before >= 0 ? '+' : ''}${(before * 100).toFixed(2)} %`);
console.log(`bill: prefix check ${difference >= 0 ? '+' : ''}${(difference * 100).toFixed(2)} % against no prefix check (budget: at most +2 %)`);
if (difference > 0.02) failed = true;
if (failed && !process.argv.includes('--no-check')) process.exitCode = 1;
