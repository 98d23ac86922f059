import { UsageError } from '@jp/core';
import type { ConversationStore } from '../store/conversation-store.ts';
import { resolveConversation } from './resolve-conversation.ts';

/**
 * The conversation a command acts on: `--id`, else `$JP_CONVERSATION`, else the active one.
 * Throws a usage error that says what to do when there is none.
 */
export function selectConversation(store: ConversationStore, id: string | undefined, hint: string, options?: { titles: true }): string;
/** With `orNew`, no conversation named and none active (or the pointer dangling) is `undefined`: start one. */
export function selectConversation(store: ConversationStore, id: string | undefined, hint: string, options: { orNew: true }): string | undefined;
/** With `titles`, a named conversation may also be named by its title (`resolveConversation`). */
export function selectConversation(store: ConversationStore, id: string | undefined, hint: string, options?: { orNew?: true; titles?: true }): string | undefined {
  if (id !== undefined && options?.titles) return resolveConversation(store, id);
  const explicit = id ?? (process.env.JP_CONVERSATION || undefined);
  if (explicit !== undefined) return store.resolveId(explicit);
  const active = store.activeId();
  if (active === undefined && options?.orNew) return undefined;
  if (active === undefined) throw new UsageError(`no active conversation; ${hint}`, { code: 'no_conversation' });
  return active;
}
