import type { ConversationStore } from './conversation-store.ts';
import { gitTrackedFiles } from './git-tracked-files.ts';

/**
 * `jp conversation rm`: a conversation git tracks gets a `removal` event (RFD 029) — deleting its
 * files would conflict with a clone that went on with it, and git's history keeps them anyway;
 * one git does not track is deleted. The caller holds the conversation's lock.
 */
export async function removeConversation(store: ConversationStore, id: string): Promise<'deleted' | 'recorded'> {
  if (gitTrackedFiles(store.dir(id)).size === 0) {
    store.remove(id);
    return 'deleted';
  }
  const { turnCount } = store.metadata(id);
  await store.append(id, [{ type: 'removal', timestamp: new Date().toISOString(), turns: turnCount }], store.openContent());
  return 'recorded';
}
