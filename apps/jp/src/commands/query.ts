import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext, type CommandContext } from '../cli/command-context.ts';
import type { EarlyRead } from '../cli/start-read-ahead.ts';
import { composeQuery } from '../query/compose-query.ts';
import type { WrittenQuery } from '../query/editor-first.ts';
import { openSession } from '../query/open-session.ts';
import { readInvocation, type QueryOptions } from '../query/read-invocation.ts';

export type { QueryOptions };

/** What a caller hears of a turn under way (`jp chat` echoes a message written in the editor). */
export interface QueryHooks {
  /** The query written in the editor, once it is (before anything is resolved or sent). */
  composed?: (query: string) => void;
}

/**
 * The stages after the session opens. They load once the query is known — while the session
 * opens, after the editor if there is one — so `jp q` with no text opens the editor without them.
 */
function turnStages() {
  return import('../query/turn-stages.ts');
}

/**
 * `jp query`, stage by stage (apps/jp/src/query/): read what was asked; open the session (lock,
 * history, configuration, provider); open the turn with its resolved attachments; answer it (the
 * model and its tools); store it; report. Anything that fails before the turn is stored leaves
 * the conversation as it was. `early`: a directory the CLI began reading before this command loaded;
 * `written`: the query written in the editor before the CLI loaded (query/editor-first.ts).
 */
export async function queryCommand(globals: GlobalOptions, textArgs: string[], options: QueryOptions, early?: EarlyRead, written?: WrittenQuery): Promise<void> {
  await runQuery(workspaceContext(globals, early?.blobs), textArgs, options, early, {}, written);
}

/** One `jp query` turn in a workspace already opened (`jp chat` runs one per message). Returns where it went. */
export async function runQuery(
  ctx: CommandContext,
  textArgs: string[],
  options: QueryOptions,
  early?: EarlyRead,
  hooks: QueryHooks = {},
  written?: WrittenQuery,
): Promise<{ id: string | undefined; turn: number }> {
  const invocation = await readInvocation(ctx, textArgs, options);
  const draft = invocation.edit === undefined ? undefined : await composeQuery(ctx, invocation, invocation.edit.prefill, written);
  if (draft !== undefined) hooks.composed?.(invocation.query);
  const stages = turnStages();
  // Should the session fail to open, the stages' load is not waited for, and not reported.
  stages.catch(() => undefined);
  const session = await openSession(ctx, invocation, early);
  let storedEarly: (() => void) | undefined;
  try {
    const { openTurn, compactBeforeSending, explainTurn, storeBlobsEarly, answerTurn, persistTurn, reportQuery, refreshListingInBackground } = await stages;
    const turn = await openTurn(session);
    await compactBeforeSending(session, turn);
    if (options.explain) {
      await explainTurn(session, turn);
      return { id: invocation.id, turn: turn.index };
    }
    // The attachments' blobs are stored before the model is called: a full disk fails here, before anything is sent (RFD 029).
    if (invocation.persist) storedEarly = await storeBlobsEarly(ctx.store, turn.events, session.content);
    const answer = await answerTurn(session, turn);
    const id = invocation.persist ? await persistTurn(session, turn, answer) : invocation.id;
    if (answer.failure !== undefined) throw answer.failure;
    // The draft goes once its turn is answered whole (and stored, unless --no-persist); a failed or interrupted turn keeps it.
    draft?.remove();
    reportQuery(ctx.output, { id, turn: turn.index, answer, created: invocation.persist && invocation.id === undefined, schema: invocation.schema !== undefined, lines: invocation.lines });
    refreshListingInBackground(session.config, session.provider.id, { terminal: process.stdout.isTTY === true && process.stderr.isTTY === true });
    return { id, turn: turn.index };
  } finally {
    storedEarly?.();
    await session.close();
  }
}
