import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readMetadata, type ConversationMetadata } from './conversation-metadata.ts';
import { branchRemovedAt, conversationActivity, isRemoved, saveActivity, withActivity } from './conversation-activity.ts';
import { branchMetadata } from './conversation-branch-id.ts';

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

/**
 * Every readable conversation's metadata, most recently active first (one read per conversation: a
 * missing file reads as none). `save: false`: the activity cache is not written (a lookup that must
 * change nothing, such as a title that matches no conversation).
 */
export function listConversations(root: string, options: { save?: boolean } = {}): ConversationMetadata[] {
  const all: ConversationMetadata[] = [];
  for (const id of entries(root)) {
    const metadata = readMetadata(id, path.join(root, id, 'metadata.json'));
    // A conversation removed where git tracks it keeps its files; it is no longer listed (RFD 029).
    if (!metadata) continue;
    const activity = conversationActivity(path.dirname(root), id);
    // A removed conversation keeps its files but is not listed; one whose events do not load is
    // listed as unreadable, with why (unreadableConversations).
    if (activity !== undefined && (isRemoved(activity) || activity.damage !== undefined)) continue;
    const listed = withActivity(path.dirname(root), metadata);
    all.push(listed);
    // Each line of turns another clone went on with is listed as a conversation of its own.
    // A branch removed with `jp c rm ID~KEY` is not (issue W); the conversation and its other branches are.
    for (const branch of activity?.branches ?? []) if (branchRemovedAt(activity!, branch.key) === undefined) all.push(branchMetadata(listed, branch));
  }
  if (options.save !== false) saveActivity(path.dirname(root));
  return all.sort((a, b) => (a.lastActivityAt < b.lastActivityAt ? 1 : a.lastActivityAt > b.lastActivityAt ? -1 : a.id < b.id ? 1 : -1));
}

/** A conversation directory whose metadata does not load, and why, in words for one line. */
export interface UnreadableConversation {
  id: string;
  reason: string;
}

/** Why `metadata.json` under `dir` does not load (it was found unreadable). */
export function unreadableReason(dir: string): string {
  let text: string;
  try {
    text = readFileSync(path.join(dir, 'metadata.json'), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'metadata.json is missing' : `metadata.json cannot be read (${code ?? 'error'})`;
  }
  if (/^(<{7}|>{7}|={7})( |$)/m.test(text)) return 'metadata.json holds git conflict markers; resolve them by hand, keeping one side';
  return 'metadata.json is damaged (it must be a JSON object with a "createdAt" time)';
}

/**
 * Directories under `root` that look like conversations but whose metadata does not load: listed
 * with a reason rather than left out, so nothing a merge or a damaged disk did goes unseen (RFD 029).
 */
export function unreadableConversations(root: string): UnreadableConversation[] {
  const found: UnreadableConversation[] = [];
  for (const id of entries(root).sort()) {
    const dir = path.join(root, id);
    if (readMetadata(id, path.join(dir, 'metadata.json')) !== undefined) {
      const damage = conversationActivity(path.dirname(root), id)?.damage;
      if (damage !== undefined) found.push({ id, reason: damage });
      continue;
    }
    if (!existsSync(path.join(dir, 'events.jsonl')) && !existsSync(path.join(dir, 'metadata.json'))) continue;
    found.push({ id, reason: unreadableReason(dir) });
  }
  return found;
}
