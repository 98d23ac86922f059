import { UsageError } from '@jp/core';
import type { ConversationStore } from '../store/conversation-store.ts';

/**
 * The conversation a command acts on: `--id`, else `$JP_CONVERSATION`, else the active one.
 * Throws a usage error that says what to do when there is none.
 */
export function selectConversation(store: ConversationStore, id: string | undefined, hint: string): string;
/** With `orNew`, no conversation named and none active (or the pointer dangling) is `undefined`: start one. */
export function selectConversation(store: ConversationStore, id: string | undefined, hint: string, options: { orNew: true }): string | undefined;
export function selectConversation(store: ConversationStore, id: string | undefined, hint: string, options?: { orNew: true }): string | undefined {
  const explicit = id ?? (process.env.JP_CONVERSATION || undefined);
  if (explicit !== undefined) return store.resolveId(explicit);
  const active = store.activeId();
  if (active === undefined && options?.orNew) return undefined;
  if (active === undefined) throw new UsageError(`no active conversation; ${hint}`, { code: 'no_conversation' });
  return active;
}
