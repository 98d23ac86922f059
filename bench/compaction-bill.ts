// What a realistic 120-turn coding session (realistic-session.ts) costs on Anthropic under each
// history strategy, and whether compaction pays (issue P, RFD 027).
//
//   node --import tsx bench/compaction-bill.ts [--no-check]
//
// In-process, through the code jp runs: the stored stream is built event by event as jp stores it
// (superseded marks decided per turn by `decideSuperseded`, compactions planned by
// `planCompaction`), each model call is sent what `modelView` makes of it (superseded stubs,
// compactions, deduplication), converted by the Anthropic converter with its cache breakpoints,
// and billed by anthropic-bill.ts (Sonnet 4.5 prices: read 0.1×, write 1.25×, output 5×; 5-minute
// cache). A stored answer carries the usage a vendor would report, so the auto strategy's
// estimate (`estimateRequestTokens`) works as it does in jp.
//
// Strategies: keep (every snapshot, no compaction); omit-when-cold (jp's default superseded
// policy); the default compaction rules applied by hand every 30 turns (`jp q --compact`);
// auto compaction at 0.9 of a 200 000-token window (`conversation.compaction.auto = "on"`), with
// the refusal path when a call would go over the window. For every compaction of the auto
// strategy the bench also bills, from the same cache state, the requests up to the next one as
// they would have been without it: the break's extra cost (the summary call included), what it
// saved, and after how many requests it had paid for itself — or that it was needed, a request
// without it going over the window. A fifth row: auto with `summarize = true` (a summary first,
// 2 000 tokens, its call billed: the view through the last summarised turn and the prompt).
import { createHash } from 'node:crypto';
import {
  autoCompactionVerdict,
  DEFAULT_COMPACTION_RULES,
  decideSuperseded,
  estimateRequestTokens,
  planCompaction,
  resolveResourceContent,
  type ChatRequestEvent,
  type CompactionEvent,
  type ConversationEvent,
  type RefResource,
  type SupersededPolicy,
} from '../packages/core/src/index.ts';
import { convertToAnthropicRequest, type ToolDefinition } from '../packages/providers/src/index.ts';
import type { MessageCreateParamsStreaming } from '../packages/providers/src/anthropic/anthropic-types.ts';
import { modelView } from '../apps/jp/src/query/model-events.ts';
import { viewThroughTurn } from '../apps/jp/src/compaction/summarize-turns.ts';
import { DEFAULT_SUMMARY_PROMPT } from '../apps/jp/src/compaction/summary-prompt.ts';
import { AnthropicCache, requestTokens, type Bill } from './anthropic-bill.ts';
import { filler, realisticSession, type Session } from './realistic-session.ts';

const TTL_SECS = 300;
const WINDOW = 200_000;
const THRESHOLD = 0.9;
const DEDUP = { enabled: true, minBytes: 300 };
const SYSTEM = 'You are a careful programming assistant working in the user’s repository.';
const TOOLS: ToolDefinition[] = ['read_file', 'grep', 'run_tests', 'refresh_resource'].map((name) => ({
  name,
  description: `${name} (bench)`,
  parameters: { type: 'object', properties: { path: { type: 'string' }, pattern: { type: 'string' }, uri: { type: 'string' }, filter: { type: 'string' } } },
}));
const EPOCH = Date.UTC(2026, 10, 2, 9, 0, 0);
const iso = (secs: number) => new Date(EPOCH + secs * 1000).toISOString();

interface Strategy {
  name: string;
  superseded: SupersededPolicy;
  /** `jp q --compact` before every Nth turn. */
  every?: number;
  /** Compaction at THRESHOLD of WINDOW before a turn, and on a call that would go over it. */
  auto?: boolean;
  /** `summarize = true`: auto may replace the compacted turns by a summary (one model call, billed). */
  summarize?: boolean;
  /** A compaction (by index) to leave out, and all after it: the counterfactual of a payback row. */
  stopAt?: number;
}

interface CompactionRow {
  turn: number;
  request: number;
  why: 'scheduled' | 'threshold' | 'refused';
  /** Cost of the requests from this compaction to the next, with it and without it. */
  withIt: number;
  without: number;
  breakCost: number;
  /** Requests after the compaction until the savings had covered the break (undefined: never). */
  paidBackAfter: number | undefined;
  /** Without it, a request before the next compaction would have gone over the window (refused). */
  needed: boolean;
  /** With it, a request before the next compaction still went over the window: it did not make room. */
  stillOver: boolean;
}

interface Run {
  bill: Bill;
  requests: number;
  maxTokens: number;
  overWindow: number;
  refusals: number;
  summaryCalls: number;
  compactions: CompactionRow[];
}

function contentStore(session: Session) {
  const texts = new Map<string, string>();
  const ref = (uri: string, name: string, text: string): RefResource => {
    const sha256 = createHashHex(text);
    texts.set(sha256, text);
    return { uri, name, mimeType: 'text/plain', ref: { sha256, size: Buffer.byteLength(text), encoding: 'text' } };
  };
  const file = (path: string, version: number) => ref(`file:///w/${path}`, path, session.content(path, version));
  const resolve = (events: ConversationEvent[]) => resolveResourceContent(events, (resource) => texts.get(resource.ref.sha256)!);
  return { file, resolve };
}

function createHashHex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function build(events: ConversationEvent[], resolve: (events: ConversationEvent[]) => ConversationEvent[]): MessageCreateParamsStreaming {
  return convertToAnthropicRequest({ model: 'claude-sonnet-4-5', system: SYSTEM, tools: TOOLS, events: resolve(modelView(events, DEDUP)) }).request;
}

function simulate(session: Session, strategy: Strategy, options: { payback?: boolean } = {}): Run {
  const { file, resolve } = contentStore(session);
  const cache = new AnthropicCache(TTL_SECS);
  const stored: ConversationEvent[] = [];
  const run: Run = { bill: cache.total, requests: 0, maxTokens: 0, overWindow: 0, refusals: 0, summaryCalls: 0, compactions: [] };
  let shadow: { cache: AnthropicCache; without: ConversationEvent[] } | undefined;
  let clock = 0;
  let currentTurn = 0;
  let lastRequestAt: number | undefined;

  const commit = (event: CompactionEvent, turn: number, why: CompactionRow['why'], summary?: { cost: number; before: AnthropicCache }): CompactionEvent => {
    // The counterfactual starts from the cache as it was before anything of this compaction (its summary call included).
    if (options.payback) shadow = { cache: summary?.before ?? cache.clone(), without: [] };
    stored.push(event);
    const cost = summary?.cost ?? 0;
    run.compactions.push({ turn, request: run.requests, why, withIt: cost, without: 0, breakCost: cost, paidBackAfter: undefined, needed: false, stillOver: false });
    return event;
  };
  const stopped = () => strategy.stopAt !== undefined && run.compactions.length >= strategy.stopAt;
  /** `jp q --compact`, and the refusal path: the configured rules, whatever they buy. */
  const compact = (turn: number, why: CompactionRow['why']): CompactionEvent | undefined => {
    const event = stopped() ? undefined : planCompaction(stored, DEFAULT_COMPACTION_RULES, iso(clock));
    return event === undefined ? undefined : commit(event, turn, why);
  };
  /** What the summary call costs: the view through the last summarised turn, the prompt, a 2 000-token answer. */
  const summarize = (to: number, events: ConversationEvent[]): { text: string; model: string; cost: number } => {
    const through = viewThroughTurn(modelView(events, DEDUP), to);
    const asked: ConversationEvent[] = [...through, { type: 'turn_start', timestamp: iso(clock) }, { type: 'chat_request', timestamp: iso(clock), content: DEFAULT_SUMMARY_PROMPT, resources: [] }];
    const text = filler(`summary-${to}`, 8_000);
    const cost = cache.charge({ at: clock, request: convertToAnthropicRequest({ model: 'claude-sonnet-4-5', system: SYSTEM, events: resolve(asked) }).request, outputBytes: text.length });
    run.summaryCalls++;
    return { text, model: 'anthropic/claude-sonnet-4-5', cost };
  };
  /** auto near the window, as `autoPlan` decides: the rules, then keeping one turn, then a summary. */
  const autoCompact = (turn: number, opening: ConversationEvent[], before: number): void => {
    if (stopped()) return;
    if (strategy.summarize && summaryCompact(turn)) return;
    const candidates = [DEFAULT_COMPACTION_RULES, { ...DEFAULT_COMPACTION_RULES, keepLast: 1 }];
    for (const rules of candidates) {
      const event = planCompaction(stored, rules, iso(clock));
      if (event === undefined) continue;
      const events = [...stored, event, ...opening];
      if (autoCompactionVerdict({ before, after: estimateRequestTokens(events, modelView(events, DEDUP)), window: WINDOW, threshold: THRESHOLD }) === 'compact') {
        commit(event, turn, 'threshold');
        return;
      }
    }
  };
  /** A summary of every turn but the kept ones, made with the other policies applied (as jp does). */
  const summaryCompact = (turn: number): boolean => {
    const policies = planCompaction(stored, DEFAULT_COMPACTION_RULES, iso(clock));
    const turns = stored.filter((event) => event.type === 'turn_start').length;
    const to = turns - DEFAULT_COMPACTION_RULES.keepLast - 1;
    if (to < 0) return false;
    const before = cache.clone();
    const { cost, ...summary } = summarize(to, [...stored, ...(policies === undefined ? [] : [policies])]);
    const event = planCompaction(stored, DEFAULT_COMPACTION_RULES, iso(clock), summary);
    if (event === undefined) return false;
    commit(event, turn, 'threshold', { cost, before });
    return true;
  };

  /** Bills one call (and its counterfactual without the newest compaction, while one is followed). */
  const send = (turnEvents: ConversationEvent[], outputBytes: number): number => {
    let request = build([...stored, ...turnEvents], resolve);
    let tokens = requestTokens(request);
    if (strategy.auto && tokens > WINDOW) {
      // The provider refuses it; jp compacts and asks again (compactOnRefusal).
      run.refusals++;
      if (compact(currentTurn, 'refused') !== undefined) {
        request = build([...stored, ...turnEvents], resolve);
        tokens = requestTokens(request);
      }
    }
    run.maxTokens = Math.max(run.maxTokens, tokens);
    if (tokens > WINDOW) run.overWindow++;
    const sent = { at: clock, request, outputBytes };
    const cost = cache.charge(sent);
    const row = run.compactions.at(-1);
    if (shadow !== undefined && row !== undefined) {
      const newest = stored.findLastIndex((event) => event.type === 'compaction');
      const without = stored.filter((_, index) => index !== newest);
      const counterfactual = build([...without, ...turnEvents], resolve);
      if (requestTokens(counterfactual) > WINDOW) row.needed = true;
      if (tokens > WINDOW) row.stillOver = true;
      const other = shadow.cache.charge({ at: clock, request: counterfactual, outputBytes });
      row.withIt += cost;
      row.without += other;
      if (run.requests === row.request) row.breakCost += cost - other;
      else if (row.paidBackAfter === undefined && row.without - row.withIt >= 0) row.paidBackAfter = run.requests - row.request;
    }
    run.requests++;
    lastRequestAt = clock;
    return tokens;
  };

  session.turns.forEach((turn, index) => {
    clock += turn.gapSecs;
    currentTurn = index;
    if (strategy.every !== undefined && index > 0 && index % strategy.every === 0) compact(index, 'scheduled');
    const start: ConversationEvent = { type: 'turn_start', timestamp: iso(clock) };
    const request: ChatRequestEvent = { type: 'chat_request', timestamp: iso(clock), content: turn.query, resources: turn.attach.map(({ file: path, version }) => file(path, version)) };
    const superseded = decideSuperseded([...stored, start, request], { policy: strategy.superseded, now: EPOCH + clock * 1000, lastRequestAt: lastRequestAt === undefined ? undefined : EPOCH + lastRequestAt * 1000, cacheTtlSecs: TTL_SECS });
    if (superseded.length > 0) request.superseded = superseded;
    const opening = [start, request];
    if (strategy.auto) {
      const events = [...stored, ...opening];
      const before = estimateRequestTokens(events, modelView(events, DEDUP));
      if (before >= THRESHOLD * WINDOW) autoCompact(index, opening, before);
    }
    const added: ConversationEvent[] = [];
    turn.steps.forEach((step, round) => {
      if (round > 0) clock += step.afterSecs;
      const outputBytes = step.text.length + (step.reasoning?.length ?? 0) + (step.tool === undefined ? 0 : JSON.stringify(step.tool.arguments).length);
      const tokens = send([...opening, ...added], outputBytes);
      const at = iso(clock);
      if (step.reasoning !== undefined) added.push({ type: 'chat_response', timestamp: at, reasoning: step.reasoning });
      if (step.tool === undefined) {
        added.push({ type: 'chat_response', timestamp: at, message: step.text, usage: { inputTokens: Math.round(tokens), outputTokens: Math.round(outputBytes / 4), lastInputTokens: Math.round(tokens) } });
        return;
      }
      added.push({ type: 'chat_response', timestamp: at, message: step.text });
      const id = `toolu_${index}_${round}`;
      added.push({ type: 'tool_call_request', timestamp: at, id, name: step.tool.name, arguments: step.tool.arguments });
      const refresh = step.tool.refresh;
      added.push({
        type: 'tool_call_response',
        timestamp: at,
        id,
        isError: false,
        content: refresh === undefined ? [{ type: 'text', text: step.tool.result }] : [{ type: 'resource', resource: file(refresh.file, refresh.version) }],
      });
    });
    stored.push(...opening, ...added);
  });
  return run;
}

const session = realisticSession();
const steps = session.turns.reduce((sum, turn) => sum + turn.steps.length, 0);
const strategies: Strategy[] = [
  { name: 'keep', superseded: 'keep' },
  { name: 'omit-when-cold', superseded: 'omit-when-cold' },
  { name: 'default rules every 30 turns (jp q --compact)', superseded: 'omit-when-cold', every: 30 },
  { name: 'default rules, auto at 0.9 of 200k', superseded: 'omit-when-cold', auto: true },
  { name: 'default rules + summarize, auto at 0.9 of 200k', superseded: 'omit-when-cold', auto: true, summarize: true },
];
const runs = strategies.map((strategy) => [strategy, simulate(session, strategy, { payback: strategy.auto === true })] as const);
const k = (n: number) => `${(n / 1000).toFixed(0)} k`;
const base = runs[0]![1].bill.cost;
console.log(`compaction bill: ${session.turns.length} turns, ${steps} model calls, Anthropic cache TTL ${TTL_SECS} s, window ${WINDOW.toLocaleString('en-US')}`);
console.log('| strategy | requests | largest request (tokens) | over the window | cache read | cache write | uncached | output | cost (input-token equiv.) | $ at $3/MTok | × keep |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const [strategy, run] of runs) {
  const b = run.bill;
  console.log(
    `| ${strategy.name} | ${run.requests} | ${Math.round(run.maxTokens).toLocaleString('en-US')} | ${run.overWindow} | ${k(b.read)} | ${k(b.write)} | ${k(b.uncached)} | ${k(b.output)} | ${k(b.cost)} | ${((b.cost * 3) / 1e6).toFixed(2)} | ${(b.cost / base).toFixed(3)} |`,
  );
}
/**
 * Paid back: it saved more than its break cost before the next compaction, or without it a request
 * would not have fitted and with it every one did (a compaction that leaves a request over the
 * window bought nothing: the provider refuses that request either way).
 */
const paidBack = (run: Run) => run.compactions.length > 0 && run.compactions.every((row) => (row.needed && !row.stillOver) || row.without - row.withIt > 0);
for (const [strategy, run] of runs.filter(([strategy]) => strategy.auto)) {
  console.log(`\n${strategy.name}: ${run.compactions.length} compactions (${run.compactions.filter((row) => row.why === 'threshold').length} near the window, ${run.refusals} calls refused as too long, ${run.summaryCalls} summary calls)`);
  console.log('| compaction | turn | at request | why | break cost | cost to the next, with it | without it | saved | paid back after |');
  console.log('|---|---:|---:|---|---:|---:|---:|---:|---|');
  run.compactions.forEach((row, index) => {
    const paid =
      row.paidBackAfter !== undefined
        ? `${row.paidBackAfter} requests`
        : row.needed && !row.stillOver
          ? 'needed: without it a request would not fit'
          : row.stillOver
            ? 'never: a request still went over the window'
            : 'never';
    console.log(`| ${index + 1} | ${row.turn} | ${row.request} | ${row.why} | ${k(row.breakCost)} | ${k(row.withIt)} | ${k(row.without)} | ${k(row.without - row.withIt)} | ${paid} |`);
  });
}
const auto = runs[3]![1];
const summarized = runs[4]![1];
const checks: Array<[string, boolean]> = [
  ['default rules with auto on ≤ 0.5× keep', auto.bill.cost <= 0.5 * base],
  ['no request of the auto strategy over the window', auto.overWindow === 0],
  ['every compaction of the auto strategy paid back before the next (or needed to fit)', paidBack(auto)],
  ['with summarize: ≤ 0.5× keep', summarized.bill.cost <= 0.5 * base],
  ['with summarize: no request over the window', summarized.overWindow === 0],
  ['with summarize: every compaction paid back before the next (or needed to fit)', paidBack(summarized)],
];
console.log('');
for (const [goal, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${goal}`);
if (checks.some(([, ok]) => !ok) && !process.argv.includes('--no-check')) process.exitCode = 1;
