import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { conversationActivity, freshActivity, isRemoved, saveActivity } from '../store/conversation-activity.ts';
import { splitConversationId } from '../store/conversation-branch-id.ts';
import { readMetadata } from '../store/conversation-metadata.ts';
import { conversationsRoot, unreadableReason } from '../store/list-conversations.ts';
import { BytePrefilter } from './byte-prefilter.ts';
import { eventsToSearch, indexQuery } from './indexed-events.ts';
import { SearchIndex } from './search-index.ts';
import { matchLines } from './match-lines.ts';
import { searchEvents, type FileHit } from './search-events.ts';
import type { ConversationHits, SearchHit } from './search-hit.ts';
import type { SearchPattern } from './search-pattern.ts';
import type { SearchScope } from './search-scope.ts';
import { SnapshotSearch } from './snapshot-search.ts';
import { StoredBytes } from './stored-bytes.ts';
import { TurnPlacement } from './turn-placement.ts';

export interface SearchRequest {
  pattern: SearchPattern;
  scopes: ReadonlySet<SearchScope>;
  /** Conversations or branches to search (resolved ids); undefined: every one of the workspace. */
  ids?: readonly string[] | undefined;
  /** Lines of context around each hit. */
  context: number;
  /** Stop after this many hits. */
  limit?: number | undefined;
}

export interface SearchHooks {
  /** Where warnings go: a conversation not searched, damaged lines, a missing blob. */
  warn(message: string): void;
  /** Runs each conversation's search (the MCP server bounds it in time); default: runs it. */
  guard?: (<T>(run: () => T) => T) | undefined;
}

export interface SearchOutcome {
  hits: number;
  /** The limit cut the search short. */
  truncated: boolean;
}

/**
 * `jp conversation grep` and the MCP tool `search_conversations`: searches the conversations of a
 * workspace, branches included (RFD 029), in the order they were created, and hands each one's
 * hits to `emit` as soon as it is searched, so output starts early and memory holds one
 * conversation's hits at a time. Reads as little as it can (RFD 033): titles alone come from the
 * metadata and the activity cache; otherwise each events.jsonl is read once into a reused buffer,
 * searched as bytes first, and only the lines that may match are parsed; blobs are read only for the
 * `resource` scope, each once. A removed conversation is not searched.
 */
export function searchConversations(jpDir: string, request: SearchRequest, emit: (found: ConversationHits) => void, hooks: SearchHooks): SearchOutcome {
  const root = conversationsRoot(jpDir);
  const wanted = new Map<string, Set<string>>();
  for (const id of request.ids ?? []) {
    const { base } = splitConversationId(id);
    wanted.set(base, (wanted.get(base) ?? new Set()).add(id));
  }
  const bases = request.ids === undefined ? directories(root) : [...wanted.keys()].sort();
  const titlesOnly = request.scopes.size === 1 && request.scopes.has('title');
  const events = new StoredBytes(jpDir);
  const index = titlesOnly ? undefined : SearchIndex.load(jpDir);
  const query = indexQuery(request.pattern);
  const snapshots = new SnapshotSearch(request.pattern, request.context, jpDir, index, query);
  const prefilter = new BytePrefilter(request.pattern, 'json');
  const guard = hooks.guard ?? (<T>(run: () => T) => run());
  let total = 0;
  let truncated = false;

  const searchOne = (base: string): ConversationHits[] => {
    const metadata = readMetadata(base, path.join(root, base, 'metadata.json'));
    if (metadata === undefined) {
      // A directory without metadata.json is no conversation (yet); one whose file is damaged is said.
      if (existsSync(path.join(root, base, 'metadata.json'))) hooks.warn(`conversation ${base} was not searched: ${unreadableReason(path.join(root, base))}`);
      return [];
    }
    const lines = wanted.get(base);
    let title = metadata.title;
    let bytes: Buffer | undefined;
    if (titlesOnly) {
      // The activity cache knows the newest title and any removal; it reads events only when stale.
      const activity = conversationActivity(jpDir, base);
      if (activity !== undefined && isRemoved(activity)) return [];
      title = activity?.title ?? title;
    } else {
      const read = eventsToSearch(path.join(root, base, 'events.jsonl'), index!, query, events, request.scopes.has('resource') ? snapshots : undefined);
      bytes = read.bytes;
      // Only a file holding a title or removal event needs its activity (cached, or counted now).
      const activity = read.marks ? (freshActivity(jpDir, base) ?? conversationActivity(jpDir, base)) : undefined;
      if (activity !== undefined && isRemoved(activity)) return [];
      title = activity?.title ?? title;
    }
    const placed = new Map<string, SearchHit[]>();
    const put = (id: string, hit: SearchHit) => {
      const list = placed.get(id);
      if (list === undefined) placed.set(id, [hit]);
      else list.push(hit);
    };
    if (request.scopes.has('title') && title !== undefined && (lines === undefined || lines.has(base))) {
      for (const hit of matchLines(title, request.pattern, 0)) put(base, { ...hit, conversation: base, turn: undefined, scope: 'title', source: 'title' });
    }
    if (bytes !== undefined) {
      const found = searchEvents(bytes, prefilter, request.pattern, request.scopes, request.context, snapshots);
      const where = path.join('.jp', 'conversations', base, 'events.jsonl');
      if (found.damaged > 0) hooks.warn(`${where}: skipped ${found.damaged} line${found.damaged === 1 ? '' : 's'} that ${found.damaged === 1 ? 'is' : 'are'} not JSON`);
      for (const missing of found.missing) hooks.warn(`conversation ${base} refers to blob ${missing.sha256} (${missing.uri}), which is missing; its text was not searched`);
      if (found.hits.length > 0) placeHits(found.hits, new TurnPlacement(bytes, base), lines, put);
    }
    const order = [base, ...[...placed.keys()].filter((id) => id !== base).sort()];
    // In turn order (a title first); within a turn, as stored.
    const turnOf = (hit: SearchHit) => hit.turn ?? -1;
    return order.filter((id) => placed.has(id)).map((id) => ({ id, title, hits: placed.get(id)!.sort((a, b) => turnOf(a) - turnOf(b)) }));
  };

  try {
    for (const base of bases) {
      for (const found of guard(() => searchOne(base))) {
        const room = request.limit === undefined ? Infinity : request.limit - total;
        if (found.hits.length > room) {
          found.hits = found.hits.slice(0, room);
          truncated = true;
        }
        total += found.hits.length;
        if (found.hits.length > 0) emit(found);
        if (truncated) return { hits: total, truncated };
      }
    }
  } finally {
    events.close();
    snapshots.close();
    index?.save();
    saveActivity(jpDir);
  }
  return { hits: total, truncated };
}

/** The conversation directories under `root`, sorted (ids sort by creation time); none when there is no such directory. */
function directories(root: string): string[] {
  try {
    return readdirSync(root)
      .filter((name) => !name.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Puts each hit of one file on its line of turns: the conversation's own line or a branch, or each
 * line asked for (a shared turn belongs to all of them). A snapshot shows once per line, at the
 * first turn that holds it; lines before the first turn (configuration) hold no hits.
 */
function placeHits(hits: readonly FileHit[], placement: TurnPlacement, lines: ReadonlySet<string> | undefined, put: (id: string, hit: SearchHit) => void): void {
  const firstSnapshot = new Map<string, number>();
  for (const { offset, scope, hit, snapshot, source } of hits) {
    const places = lines === undefined ? [placement.place(offset)] : [...lines].map((line) => placement.place(offset, line));
    for (const place of places) {
      if (place === undefined) continue;
      if (snapshot !== undefined) {
        const key = `${place.id}:${snapshot.sha256}`;
        const first = firstSnapshot.get(key);
        if (first !== undefined && first !== offset) continue;
        firstSnapshot.set(key, offset);
      }
      const shown = snapshot === undefined ? undefined : { uri: snapshot.uri, name: snapshot.name, mimeType: snapshot.mimeType, sha256: snapshot.sha256 };
      put(place.id, { ...hit, conversation: place.id, turn: place.turn, scope, snapshot: shown, source });
    }
  }
}
