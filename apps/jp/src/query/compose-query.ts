import type { CommandContext } from '../cli/command-context.ts';
import { declarationRefresh, declarationUrl, declarationUrls } from '../config/attachment-declaration.ts';
import type { QueryDraft } from '../editor/query-draft.ts';
import type { WrittenQuery } from './editor-first.ts';
import type { TemplateContext } from '../editor/query-template.ts';
import { freshnessNotices } from '../resolution/check-declared-freshness.ts';
import { planTurnAttachments, urisInStream } from '../resolution/resolve-turn-attachments.ts';
import { lastAnswer } from './last-answer.ts';
import { openSession, type QuerySession } from './open-session.ts';
import type { QueryInvocation } from './read-invocation.ts';

/** What the template shows: read from the conversation as stored, nothing resolved or run. */
async function templateContext(session: QuerySession): Promise<TemplateContext> {
  const { history, config, registry, handlerContext: hctx, invocation, ctx } = session;
  const attached: string[] = [];
  for (const input of invocation.options.attach) attached.push(input === '-' ? 'stdin' : await registry.validate(input, hctx));
  const plan = planTurnAttachments({
    declared: declarationUrls(config.conversation.attachments),
    attached: attached.filter((input) => input !== 'stdin'),
    streamUris: urisInStream(history),
    covers: (declaration, uri) => registry.covers(declaration, uri, hctx),
  });
  const notices = history.length === 0 ? [] : await freshnessNotices({
    history,
    declarations: config.conversation.attachments.map((declaration) => ({
      url: declarationUrl(declaration),
      refresh: declarationRefresh(declaration, config.conversation.attachment.refresh),
    })),
    attachedNow: new Set(),
    config,
    registry,
    hctx,
  });
  const id = invocation.id;
  return {
    conversation: id === undefined ? undefined : { id, title: ctx.store.readableMetadata(id)?.title },
    model: config.assistant.model,
    attachments: [...plan.toResolve, ...(attached.includes('stdin') ? ['stdin (piped)'] : [])],
    notices: notices.map((notice) => notice.text),
    lastAnswer: lastAnswer(history),
  };
}

/**
 * The query written in the editor (`jp q` with no text at a terminal, or `-e`). The template's
 * context is read from the conversation without taking its lock, which the turn takes only once
 * the query is written: another terminal may go on while this one edits. Returns the draft that
 * keeps the text until the turn is stored. `written`: the editor already ran before the CLI loaded
 * (editor-first.ts), on the template this would have made, and its query is taken.
 */
export async function composeQuery(ctx: CommandContext, invocation: QueryInvocation, prefill: string, written?: WrittenQuery): Promise<QueryDraft> {
  if (written !== undefined && 'edited' in written) {
    invocation.query = written.edited.query;
    return written.edited.draft;
  }
  const preview = await openSession(ctx, invocation, undefined, { preview: true });
  let context: TemplateContext;
  try {
    context = await templateContext(preview);
  } finally {
    await preview.close();
  }
  const { editQuery } = await import('../editor/edit-query.ts');
  const { query, draft } = await editQuery({
    jpDir: ctx.workspace.jpDir,
    workspaceRoot: ctx.workspace.root,
    conversationId: invocation.id,
    prefill,
    context,
    env: process.env,
    configured: preview.config.editor.command,
    note: (message) => ctx.output.note(message),
  });
  invocation.query = query;
  return draft;
}
