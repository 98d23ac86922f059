import type { ConversationEvent } from '@jp/core';
import type { ConversationStore } from './conversation-store.ts';
import { recordPendingBlobs } from './pending-blobs.ts';
import type { TurnContent } from './turn-content.ts';

/**
 * Stores the blobs of a turn's opening events (its attachments) before the model is called, so a
 * full disk fails the query before anything is sent or paid for (RFD 029, "Blobs before the
 * model"). They are listed as pending (pending-blobs.ts) under the blob lock, so `jp gc` keeps
 * them until the turn's line refers to them; storing the turn then skips them. Returns what ends
 * the listing, once the turn is stored or has failed.
 */
export async function storeBlobsEarly(store: ConversationStore, events: readonly ConversationEvent[], content: TurnContent): Promise<() => void> {
  const { payloadsOf } = await import('./stored-resource.ts');
  const payloads = payloadsOf(events, content);
  if (payloads.size === 0) return () => undefined;
  const release = await store.withBlobs(payloads, new Map(), () => recordPendingBlobs(store.jpDir, payloads.keys()));
  content.markStoredEarly(payloads.keys());
  return release;
}
