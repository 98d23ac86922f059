import { conversationsRoot, listConversations } from '../store/list-conversations.ts';
import type { CompletionCandidate } from './completion-candidate.ts';
import type { CompletionScope } from './completion-scope.ts';

/** Conversations, most recently active first, each with its title (or its turns and date), from their metadata files alone. */
export function completeConversations(scope: CompletionScope): CompletionCandidate[] {
  if (scope.jpDir === undefined) return [];
  return listConversations(conversationsRoot(scope.jpDir)).map((m) => ({
    value: m.id,
    description: m.title ?? `${m.turnCount} turn${m.turnCount === 1 ? '' : 's'}, ${m.lastActivityAt.slice(0, 10)}`,
  }));
}
