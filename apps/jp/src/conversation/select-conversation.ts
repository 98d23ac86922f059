import { UsageError } from '@jp/core';
import type { ConversationStore } from '../store/conversation-store.ts';

/**
 * The conversation a command acts on: `--id`, else `$JP_CONVERSATION`, else the active one.
 * Throws a usage error that says what to do when there is none.
 */
export function selectConversation(store: ConversationStore, id: string | undefined, hint: string): string {
  const explicit = id ?? (process.env.JP_CONVERSATION || undefined);
  if (explicit !== undefined) return store.resolveId(explicit);
  const active = store.activeId();
  if (active === undefined) throw new UsageError(`no active conversation; ${hint}`, { code: 'no_conversation' });
  return active;
}
