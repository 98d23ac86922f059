import { UsageError } from '@jp/core';
import { workspaceContext } from '../cli/command-context.ts';
import type { GlobalOptions } from '../cli/global-options.ts';
import { chatLoop } from '../chat/chat-loop.ts';
import { selectConversation } from '../conversation/select-conversation.ts';

export interface ChatOptions {
  id?: string;
  new?: boolean;
  model?: string;
  attach: string[];
  title?: string;
  showReasoning?: boolean;
  reasoning?: string;
}

/** `jp chat`: a read–answer loop of ordinary `jp query` turns on one conversation (RFD 024). */
export async function chatCommand(globals: GlobalOptions, options: ChatOptions): Promise<void> {
  if (options.new && options.id !== undefined) throw new UsageError('--new and --id exclude each other', { code: 'usage_error' });
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('jp chat needs a terminal; in a script, send each message with jp query', { code: 'usage_error' });
  }
  const ctx = workspaceContext(globals);
  const id = options.new ? undefined : selectConversation(ctx.store, options.id, '', { orNew: true });
  await chatLoop(ctx, globals, {
    id,
    model: options.model,
    title: options.title,
    pending: [...options.attach],
    turnsSeen: id === undefined ? undefined : ctx.store.readableMetadata(id)?.turnCount,
    showReasoning: options.showReasoning === true,
    reasoning: options.reasoning,
  });
}
