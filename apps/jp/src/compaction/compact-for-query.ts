import { autoCompactionVerdict, estimateRequestTokens, ExitCode, JpError, ProviderError, type CompactionEvent, type CompactionRules } from '@jp/core';
import { modelView } from '../query/model-events.ts';
import type { QuerySession } from '../query/open-session.ts';
import type { TurnOpening } from '../query/open-turn.ts';
import { promptConfirm } from '../output/terminal-prompts.ts';
import { compactionRules, describeRules } from './compaction-rules.ts';
import { planConversationCompaction, planSizes, type CompactionPlan } from './compact-conversation.ts';
import { contextWindowOf } from './context-window.ts';
import { summarizer } from './summarizer.ts';

const thousands = (n: number) => n.toLocaleString('en-US');

function deduplicationOf(session: QuerySession) {
  const { enabled, min_bytes: minBytes } = session.config.conversation.deduplication;
  return { enabled, minBytes };
}

/** A compaction planned for the session by `rules` (the configured ones unless given); nothing written. */
async function planFor(session: QuerySession, rules: CompactionRules & { summarize: boolean } = compactionRules(session.config)): Promise<CompactionPlan> {
  const { config, ctx } = session;
  return planConversationCompaction({
    history: session.history,
    rules,
    deduplication: deduplicationOf(session),
    summarize: summarizer({ config, content: session.content, output: ctx.output, signal: session.signal, current: { provider: session.provider, model: session.model } }),
  });
}

/** The plan's event appended to the stored stream (when this query stores its turn) and to the history the turn is sent with. */
async function commit(session: QuerySession, event: CompactionEvent): Promise<void> {
  const { id, persist } = session.invocation;
  if (persist && id !== undefined) await session.ctx.store.append(id, [event], session.content);
  session.history.push(event);
}

/**
 * Compacts the session's conversation by `[conversation.compaction]`. A compaction that would not
 * make the request smaller is not written: the plan comes back without its event, `notSmaller` set.
 */
export async function compactSession(session: QuerySession): Promise<CompactionPlan> {
  const plan = await planFor(session);
  if (plan.notSmaller) return { ...plan, event: undefined, why: `it would not make the request smaller (${planSizes(plan)})` };
  if (plan.event !== undefined) await commit(session, plan.event);
  return plan;
}

/** "turns 0–11 (reasoning stripped, …): about 52 000 → 9 800 tokens" */
export function describeCompaction(event: CompactionEvent, plan: CompactionPlan, rules: CompactionRules & { summarize: boolean }): string {
  const range = event.from === event.to ? `turn ${event.from}` : `turns ${event.from}–${event.to}`;
  return `${range} (${describeRules(rules)}): about ${thousands(plan.before.tokens)} → ${thousands(plan.after.tokens)} tokens`;
}

/** The request's estimated tokens, with the history as it is or with `event` appended. */
function estimate(session: QuerySession, turn: TurnOpening, event?: CompactionEvent): number {
  const stream = [...session.history, ...(event === undefined ? [] : [event]), ...turn.events];
  const system = Math.ceil((session.config.assistant.system_prompt?.length ?? 0) / 4);
  return estimateRequestTokens(stream, modelView(stream, deduplicationOf(session))) + system;
}

/**
 * The compaction auto makes near the window, if one is worth its cache break
 * (`autoCompactionVerdict`): a summary when the rules ask for one (and auto is "on"); the
 * configured rules; short of that, the same keeping only the last turn. Undefined when none is
 * enough.
 */
async function autoPlan(session: QuerySession, turn: TurnOpening, before: number, window: number): Promise<{ event: CompactionEvent; plan: CompactionPlan; rules: CompactionRules & { summarize: boolean }; after: number } | undefined> {
  const configured = compactionRules(session.config);
  const threshold = session.config.conversation.compaction.threshold;
  // With summarize, a summary first: it makes room for many turns, so the cache breaks less often
  // (bench/compaction-bill.ts). It costs a model call: made without asking only under auto = "on".
  const candidates = configured.summarize && session.config.conversation.compaction.auto === 'on' ? [configured] : [];
  candidates.push({ ...configured, summarize: false });
  if (configured.keepLast > 1) candidates.push({ ...configured, keepLast: 1, summarize: false });
  for (const rules of candidates) {
    const plan = await planFor(session, rules);
    // Auto never writes a compaction that does not shrink what is sent.
    if (plan.event === undefined || plan.notSmaller) continue;
    const after = estimate(session, turn, plan.event);
    if (autoCompactionVerdict({ before, after, window, threshold }) === 'compact') return { event: plan.event, plan, rules, after };
  }
  return undefined;
}

/**
 * Before the turn is sent: `--compact` compacts by the configured rules; otherwise, when the
 * request is estimated near the model's context window (`threshold`), `auto` decides — `on`
 * compacts when that buys room (`autoPlan`) and says so in one line, `ask` asks first when a
 * person is at the terminal, `off` (and `ask` without a terminal) sends as it is.
 */
export async function compactBeforeSending(session: QuerySession, turn: TurnOpening): Promise<void> {
  const { output } = session.ctx;
  if (session.invocation.options.compact === true) {
    const plan = await compactSession(session);
    if (plan.notSmaller) {
      throw new JpError(`--compact: compacting would not make the request smaller (${planSizes(plan)}); nothing was compacted or sent: ask without --compact, or \`jp conversation compact --force\``, {
        code: 'compaction_not_smaller',
      });
    }
    if (plan.event === undefined) output.note(`jp: nothing to compact: ${plan.why}`);
    else output.note(`jp: compacted ${describeCompaction(plan.event, plan, compactionRules(session.config))}`);
    return;
  }
  const settings = session.config.conversation.compaction;
  if (settings.auto === 'off') return;
  const window = contextWindowOf(session.provider.id, session.model, session.config);
  if (window === undefined) return;
  const before = estimate(session, turn);
  if (before < settings.threshold * window) return;
  const near = `this request is about ${thousands(before)} tokens, ${Math.round((before / window) * 100)} % of ${session.config.assistant.model}'s ${thousands(window)}-token window`;
  if (settings.auto === 'ask' && (process.stdin.isTTY !== true || process.stderr.isTTY !== true)) {
    output.note(`jp: ${near}; \`jp conversation compact\` makes room (conversation.compaction.auto = "on" does it by itself)`);
    return;
  }
  const chosen = await autoPlan(session, turn, before, window);
  if (chosen === undefined) {
    output.warn(`${near}, and compacting by [conversation.compaction] would not make enough room; \`jp conversation compact --summarize\` would`);
    return;
  }
  if (settings.auto === 'ask' && !(await ask(`${near}. Compact older turns first (${describeRules(chosen.rules)}), to about ${thousands(chosen.after)} tokens?`))) return;
  await commit(session, chosen.event);
  output.note(`jp: ${near}; compacted ${describeCompaction(chosen.event, chosen.plan, chosen.rules)}`);
}

async function ask(message: string): Promise<boolean> {
  try {
    return await promptConfirm(message, true);
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') {
      throw new JpError('interrupted at the compaction prompt', { exitCode: ExitCode.interrupted, code: 'interrupted' });
    }
    throw error;
  }
}

/**
 * What `jp query` does when the provider refuses a model call as too long (the turn loop's
 * `tooLong`): with `auto = "on"`, the first refusal compacts the conversation and the call is made
 * again with the compaction (the turn's tool calls so far are kept); otherwise — or on a second
 * refusal, or when nothing is left to compact — the refusal becomes the query's error (exit 3),
 * naming what makes room. Nothing of the refused turn is stored either way.
 */
export function compactOnRefusal(session: QuerySession): (refusal: ProviderError) => Promise<CompactionEvent[]> {
  let compacted = false;
  return async (refusal) => {
    const { output } = session.ctx;
    const hint = (why: string) => new ProviderError(refusal.provider, `${refusal.message}; ${why}`, { code: 'context_too_long', statusCode: refusal.statusCode, cause: refusal });
    if (compacted) throw stillTooLong(refusal);
    if (session.config.conversation.compaction.auto !== 'on') {
      throw hint('make room with `jp conversation compact` (or set conversation.compaction.auto = "on" to compact and retry)');
    }
    compacted = true;
    const plan = await compactSession(session);
    if (plan.event === undefined) throw hint(`nothing is left to compact by [conversation.compaction] (${plan.why}); try \`jp conversation compact --summarize\` or a smaller --keep-last`);
    output.note(`jp: ${session.provider.id} refused the request as too long; compacted ${describeCompaction(plan.event, plan, compactionRules(session.config))}, and asking again`);
    return [plan.event];
  };
}

/** The refusal of the request asked again after compacting: the query's error (exit 3). */
export function stillTooLong(refusal: ProviderError): ProviderError {
  const why = 'still too long after compacting by [conversation.compaction]; try `jp conversation compact --summarize` or a smaller --keep-last';
  return new ProviderError(refusal.provider, `${refusal.message}; ${why}`, { code: 'context_too_long', statusCode: refusal.statusCode, cause: refusal });
}
