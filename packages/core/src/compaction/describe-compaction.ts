import type { CompactionEvent } from './compaction-event.ts';

/** What each tool policy does, in words (a compaction's description, and the rules'). */
export const TOOL_POLICY_WORDS = {
  keep: 'tool calls kept',
  'strip-arguments': 'tool arguments stubbed',
  'strip-results': 'tool results stubbed',
  strip: 'tool arguments and results stubbed',
  omit: 'tool calls left out',
} as const;

/**
 * A compaction in words, as `conversation show` and `--html` print it where it was appended:
 * "from here on, turns 0–11 are sent with reasoning stripped, resources stubbed" (a summary's text
 * is shown apart).
 */
export function describeCompaction(event: CompactionEvent): string {
  if (event.reset === true) return 'compactions reset: from here on, every turn is sent in full';
  const range = event.from === event.to ? `turn ${event.from} is` : `turns ${event.from}–${event.to} are`;
  // A summary stands for its turns whole: the event's other policies do not show.
  if (event.summary !== undefined) return `compaction: from here on, ${range} sent as a summary written by ${event.summary.model}`;
  const parts: string[] = [];
  if (event.reasoning !== undefined) parts.push(event.reasoning === 'strip' ? 'reasoning stripped' : 'reasoning kept');
  if (event.tools !== undefined) parts.push(TOOL_POLICY_WORDS[event.tools]);
  if (event.resources !== undefined) parts.push(event.resources === 'stub' ? 'resources stubbed' : 'resources kept');
  return `compaction: from here on, ${range} sent with ${parts.join(', ') || 'nothing changed'}`;
}
