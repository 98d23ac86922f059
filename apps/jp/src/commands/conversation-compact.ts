import { activeCompactions, JpError, TOOL_POLICIES, UsageError, type CompactionEvent, type ToolPolicy } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { readCfgArgs, readConfigFiles, resolveConfig } from '../config/load-config.ts';
import { conversationConfig, conversationLayers } from '../conversation/conversation-config.ts';
import { selectConversation } from '../conversation/select-conversation.ts';
import { compactionRules, describeRules, type CompactionChoice } from '../compaction/compaction-rules.ts';
import { planConversationCompaction, planSizes, sizeOf, type CompactionPlan, type ViewSize } from '../compaction/compact-conversation.ts';
import { summarizer } from '../compaction/summarizer.ts';
import { conversationWaitNotice } from '../store/lock-wait-notice.ts';

export interface CompactOptions {
  keepFirst?: string;
  keepLast?: string;
  reasoning?: boolean;
  tools?: boolean | string;
  resources?: boolean;
  summarize?: boolean;
  dryRun?: boolean;
  reset?: boolean;
  /** Write a compaction even when it would not make the request smaller. */
  force?: boolean;
}

function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new UsageError(`${name} takes a number of turns (0 or more), not ${JSON.stringify(value)}`, { code: 'usage_error' });
  return n;
}

/** The command's options as a choice over the configured rules; usage errors before anything is read. */
export function compactChoice(options: CompactOptions): CompactionChoice {
  if (options.reset && (options.keepFirst ?? options.keepLast ?? options.reasoning ?? options.tools ?? options.resources ?? options.summarize ?? options.force) !== undefined) {
    throw new UsageError('--reset cancels the earlier compactions and takes no other option: `jp conversation compact --reset`', { code: 'usage_error' });
  }
  let tools: ToolPolicy | undefined;
  if (options.tools === true) tools = 'strip-results';
  else if (typeof options.tools === 'string') {
    if (!(TOOL_POLICIES as readonly string[]).includes(options.tools) || options.tools === 'keep') {
      throw new UsageError(`--tools takes one of strip-results (the default), strip-arguments, strip or omit, not ${JSON.stringify(options.tools)}`, { code: 'usage_error' });
    }
    tools = options.tools as ToolPolicy;
  }
  return {
    keepFirst: count('--keep-first', options.keepFirst),
    keepLast: count('--keep-last', options.keepLast),
    reasoning: options.reasoning,
    tools,
    resources: options.resources,
    summarize: options.summarize,
  };
}

const thousands = (n: number) => n.toLocaleString('en-US');
const sizes = (before: ViewSize, after: ViewSize) =>
  `${thousands(before.bytes)} → ${thousands(after.bytes)} bytes, about ${thousands(before.tokens)} → ${thousands(after.tokens)} tokens sent`;
const rangeOf = (event: CompactionEvent) => (event.from === event.to ? `turn ${event.from}` : `turns ${event.from}–${event.to}`);

/**
 * `jp conversation compact`: appends a compaction event (RFD 027) — by `[conversation.compaction]`,
 * or by the kinds named — or, with `--reset`, one that cancels the earlier ones. The turns on disk
 * stay as they are; `--dry-run` prints what would change and writes nothing.
 */
export async function conversationCompact(globals: GlobalOptions, idArg: string | undefined, options: CompactOptions): Promise<void> {
  const choice = compactChoice(options);
  const ctx = workspaceContext(globals);
  const { store, output } = ctx;
  const id = selectConversation(store, idArg, 'pass an id; `jp conversation ls` lists them');
  const scanned = await store.scan(id);
  const stored = conversationConfig(id, store.baseConfig(id), scanned.configEvents, store.readableMetadata(id));
  const config = resolveConfig([...conversationLayers(readConfigFiles(ctx.workspace.jpDir), stored), readCfgArgs(globals.cfg)]);
  const { enabled, min_bytes: minBytes } = config.conversation.deduplication;
  const deduplication = { enabled, minBytes };
  // The plan is made and written under the conversation's lock: no turn lands in between.
  const release = options.dryRun ? undefined : await store.lock(id, config.conversation.lock_timeout_secs * 1000, conversationWaitNotice(ctx, id, config.conversation.lock_timeout_secs * 1000));
  try {
    const content = store.openContent();
    const loaded = await store.events(id, content);
    for (const warning of loaded.warnings) output.warn(warning);
    const history = content.stageEvents(loaded.events);
    let plan: CompactionPlan;
    let done: string;
    if (options.reset) {
      const before = sizeOf(history, deduplication);
      const event: CompactionEvent = { type: 'compaction', timestamp: new Date().toISOString(), reset: true };
      plan = activeCompactions(history).length === 0 ? { event: undefined, why: 'the conversation has no compaction in force', before, after: before } : { event, before, after: sizeOf([...history, event], deduplication) };
      done = options.dryRun ? 'would reset the compactions: every turn would be sent in full again' : 'reset the compactions: every turn is sent in full again';
    } else {
      const rules = compactionRules(config, choice);
      plan = await planConversationCompaction({ history, rules, deduplication, summarize: rules.summarize ? summarizer({ config, content, output }) : undefined });
      done = plan.event === undefined ? '' : `${options.dryRun ? 'would compact' : 'compacted'} ${rangeOf(plan.event)} (${describeRules(rules)})`;
    }
    // A compaction only ever shrinks what is sent: one that would not is refused unless forced (issue W).
    const refused = plan.notSmaller === true && !options.reset && !options.force;
    if (refused && !options.dryRun) {
      throw new JpError(`compacting ${id} would not make the request smaller (${planSizes(plan)} sent); nothing was written: --force writes it anyway`, {
        code: 'compaction_not_smaller',
      });
    }
    if (plan.event !== undefined && !options.dryRun) await store.append(id, [plan.event], content);
    if (output.json) {
      output.data({
        id,
        dryRun: options.dryRun === true,
        compaction: plan.event ?? null,
        ...(plan.why === undefined ? {} : { reason: plan.why }),
        before: plan.before,
        after: plan.after,
        ...(refused ? { refused: 'not smaller' } : {}),
      });
      return;
    }
    if (plan.event === undefined) output.line(`nothing to ${options.reset ? 'reset' : 'compact'} in ${id}: ${plan.why}`);
    else output.line(`${done} in ${id}: ${sizes(plan.before, plan.after)}${refused ? '; it would be refused: not smaller (--force writes it)' : ''}`);
    if (plan.event !== undefined && !options.dryRun && !options.reset) output.note('the turns on disk are unchanged; `jp conversation compact --reset` sends them in full again');
  } finally {
    release?.();
  }
}
