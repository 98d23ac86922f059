import type { ConversationStore } from './conversation-store.ts';
import { conversationActivity } from './conversation-activity.ts';
import { splitConversationId } from './conversation-branch-id.ts';
import { gitTrackedFiles } from './git-tracked-files.ts';

/**
 * `jp conversation rm`: a conversation git tracks gets a `removal` event (RFD 029) — deleting its
 * files would conflict with a clone that went on with it, and git's history keeps them anyway;
 * one git does not track is deleted. A branch (`ID~KEY`) gets a `branch_removal` event naming it
 * in its conversation's events: its turns live in that file with the others', so nothing is
 * deleted, and only that branch is hidden (issue W). The caller holds the conversation's lock.
 */
export async function removeConversation(store: ConversationStore, id: string): Promise<'deleted' | 'recorded'> {
  const { base, branch } = splitConversationId(id);
  if (branch !== undefined) {
    const line = conversationActivity(store.jpDir, base)?.branches?.find((candidate) => candidate.key === branch);
    const turns = line?.turns ?? store.metadata(id).turnCount;
    await store.append(base, [{ type: 'branch_removal', timestamp: new Date().toISOString(), branch, turns }], store.openContent());
    return 'recorded';
  }
  if (gitTrackedFiles(store.dir(id)).size === 0) {
    store.remove(id);
    return 'deleted';
  }
  const { turnCount } = store.metadata(id);
  await store.append(id, [{ type: 'removal', timestamp: new Date().toISOString(), turns: turnCount }], store.openContent());
  return 'recorded';
}
