import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readMetadata, type ConversationMetadata } from './conversation-metadata.ts';
import { saveActivity, withActivity } from './conversation-activity.ts';

/*
 * Listing reads `conversations/*\/metadata.json` and nothing else. It is its own module, free of
 * the store's writers, blobs and locks, so that what only lists (shell completion on every Tab)
 * loads no more than this.
 */

/** Where a workspace keeps its conversations, one directory each. */
export function conversationsRoot(jpDir: string): string {
  return path.join(jpDir, 'conversations');
}

function entries(root: string): string[] {
  try {
    return readdirSync(root).filter((name) => !name.startsWith('.'));
  } catch {
    return [];
  }
}

/** The ids of the conversations under `root` (`.jp/conversations`), sorted: directories holding a metadata.json. */
export function conversationIds(root: string): string[] {
  return entries(root)
    .filter((name) => existsSync(path.join(root, name, 'metadata.json')))
    .sort();
}

/** Every readable conversation's metadata, most recently active first (one read per conversation: a missing file reads as none). */
export function listConversations(root: string): ConversationMetadata[] {
  const all: ConversationMetadata[] = [];
  for (const id of entries(root)) {
    const metadata = readMetadata(id, path.join(root, id, 'metadata.json'));
    if (metadata) all.push(withActivity(path.dirname(root), metadata));
  }
  saveActivity(path.dirname(root));
  return all.sort((a, b) => (a.lastActivityAt < b.lastActivityAt ? 1 : a.lastActivityAt > b.lastActivityAt ? -1 : a.id < b.id ? 1 : -1));
}
