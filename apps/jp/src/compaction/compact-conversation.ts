import { compactionRange, planCompaction, tokensOfBytes, viewBytes, type CompactionEvent, type CompactionRules, type CompactionSummary, type ConversationEvent, type DedupeOptions } from '@jp/core';
import { modelView } from '../query/model-events.ts';

/** A view's size: bytes sent of the conversation, and tokens at four bytes each. */
export interface ViewSize {
  bytes: number;
  tokens: number;
}

/** What a compaction would do, or did: its event (undefined: nothing to do, and why), and the view's size before and after. */
export interface CompactionPlan {
  event: CompactionEvent | undefined;
  why?: string | undefined;
  before: ViewSize;
  after: ViewSize;
  /**
   * The event would not make what is sent smaller (a summary longer than the turns it replaces,
   * stubs of content already deduplicated): a compaction only ever shrinks a request, so such an
   * event is written only when asked with `--force` (issue W).
   */
  notSmaller?: boolean;
}

/** "5,607 → 6,227 bytes, about 1,402 → 1,557 tokens" */
export function planSizes(plan: Pick<CompactionPlan, 'before' | 'after'>): string {
  const thousands = (n: number) => n.toLocaleString('en-US');
  return `${thousands(plan.before.bytes)} → ${thousands(plan.after.bytes)} bytes, about ${thousands(plan.before.tokens)} → ${thousands(plan.after.tokens)} tokens`;
}

export function sizeOf(events: readonly ConversationEvent[], deduplication: DedupeOptions): ViewSize {
  const bytes = viewBytes(modelView(events, deduplication));
  return { bytes, tokens: tokensOfBytes(bytes) };
}

/**
 * Plans a compaction of the stored stream `history` by `rules`: the event, made only if it changes
 * what the model is sent (or carries a summary), and the view's size before and after. With a
 * summary asked for, `summarize` is called with the view the other policies leave and the last
 * turn covered; it is never called when no turn is left to cover.
 */
export async function planConversationCompaction(input: {
  history: readonly ConversationEvent[];
  rules: CompactionRules & { summarize: boolean };
  deduplication: DedupeOptions;
  summarize?: ((view: ConversationEvent[], to: number) => Promise<CompactionSummary>) | undefined;
  timestamp?: string | undefined;
}): Promise<CompactionPlan> {
  const { history, rules, deduplication } = input;
  const timestamp = input.timestamp ?? new Date().toISOString();
  const before = sizeOf(history, deduplication);
  const turns = history.filter((event) => event.type === 'turn_start').length;
  const nothing = (why: string): CompactionPlan => ({ event: undefined, why, before, after: before });
  const range = compactionRange(turns, rules);
  if (range === undefined) return nothing(`the conversation has ${turns} turn${turns === 1 ? '' : 's'}, and the first ${rules.keepFirst} and last ${rules.keepLast} are kept`);
  let summary: CompactionSummary | undefined;
  if (rules.summarize) {
    if (input.summarize === undefined) throw new Error('planConversationCompaction: a summary was asked for without a summarizer');
    const policies = planCompaction(history, rules, timestamp);
    summary = await input.summarize(modelView(policies === undefined ? [...history] : [...history, policies], deduplication), range.to);
  }
  const event = planCompaction(history, rules, timestamp, summary);
  if (event === undefined) return nothing('every turn it would cover is already sent that way');
  const after = sizeOf([...history, event], deduplication);
  return { event, before, after, ...(after.bytes >= before.bytes ? { notSmaller: true } : {}) };
}
