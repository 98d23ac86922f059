import type { ConversationEvent } from '../conversation-event.ts';
import type { CompactionEvent, CompactionSummary } from './compaction-event.ts';
import type { ToolPolicy } from './tool-policies.ts';
import { activeCompactions, turnPolicies } from './project-compactions.ts';

/** `[conversation.compaction]`'s rules: which turns a compaction covers and what it does to them. */
export interface CompactionRules {
  /** Turns at the start left as they are (the task is often stated there). */
  keepFirst: number;
  /** Turns at the end left as they are (the work in hand). */
  keepLast: number;
  /** Strip reasoning. */
  reasoning: boolean;
  tools: ToolPolicy;
  /** Resources become stubs that keep URI, MIME type, size and digest. */
  resources: boolean;
}

export const DEFAULT_COMPACTION_RULES: CompactionRules = { keepFirst: 0, keepLast: 4, reasoning: true, tools: 'strip-results', resources: true };

/** The turns a compaction by these rules covers in a stream of `turnCount` turns, if any. */
export function compactionRange(turnCount: number, rules: Pick<CompactionRules, 'keepFirst' | 'keepLast'>): { from: number; to: number } | undefined {
  const from = rules.keepFirst;
  const to = turnCount - rules.keepLast - 1;
  return to >= from ? { from, to } : undefined;
}

/**
 * The compaction event these rules make of the stream, or undefined when it would decide nothing
 * new: no turn outside the kept ones, or every covered turn already sent that way (a second
 * `jp q --compact` appends nothing). A summary, made beforehand by a model, is taken as given.
 */
export function planCompaction(events: readonly ConversationEvent[], rules: CompactionRules, timestamp: string, summary?: CompactionSummary): CompactionEvent | undefined {
  const turnCount = events.filter((event) => event.type === 'turn_start').length;
  const range = compactionRange(turnCount, rules);
  if (range === undefined) return undefined;
  const event: CompactionEvent = { type: 'compaction', timestamp, ...range };
  if (rules.reasoning) event.reasoning = 'strip';
  if (rules.tools !== 'keep') event.tools = rules.tools;
  if (rules.resources) event.resources = 'stub';
  if (summary !== undefined) event.summary = summary;
  if (summary === undefined && !changesPolicies(events, event, turnCount)) return undefined;
  return event;
}

/** Whether appending `candidate` would send any turn differently. */
function changesPolicies(events: readonly ConversationEvent[], candidate: CompactionEvent, turnCount: number): boolean {
  const active = activeCompactions(events);
  const before = turnPolicies(turnCount, active);
  const after = turnPolicies(turnCount, [...active, candidate]);
  return before.some((policy, turn) => policy.reasoning !== after[turn]!.reasoning || policy.tools !== after[turn]!.tools || policy.resources !== after[turn]!.resources);
}
