import type { CompletionCandidate } from './completion-candidate.ts';
import type { CompletionScope } from './completion-scope.ts';
import { completeConversations } from './complete-conversations.ts';

/** `jp://conversation/<id>` for each conversation (branches included), with its title: what `--attach` takes to attach one (RFD 033). */
export function completeJpUris(scope: CompletionScope): CompletionCandidate[] {
  return completeConversations(scope).map((candidate) => ({ ...candidate, value: `jp://conversation/${encodeURIComponent(candidate.value)}` }));
}
