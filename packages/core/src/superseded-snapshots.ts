import type { ContentBlock } from './content-block.ts';
import type { ChatRequestEvent, ConversationEvent, ToolCallResponseEvent } from './conversation-event.ts';
import type { Resource, TextResource } from './resource.ts';
import { placeSnapshots, warmStubsWorthIt } from './warm-stub-savings.ts';

/** `conversation.history.superseded` (RFD 020). */
export type SupersededPolicy = 'keep' | 'omit' | 'omit-when-cold' | 'omit-when-cheaper';
export const SUPERSEDED_POLICIES: readonly SupersededPolicy[] = ['keep', 'omit', 'omit-when-cold', 'omit-when-cheaper'];

/** A decision recorded in a turn's request: the snapshots of `uri` delivered in turn `turn` are sent as a stub from then on. */
export interface SupersededMark {
  turn: number;
  uri: string;
}

export interface SupersededOptions {
  policy: SupersededPolicy;
  /** Milliseconds since the epoch: when this request is made. */
  now: number;
  /** When the conversation's last request was made (its newest event); undefined for a new conversation. */
  lastRequestAt: number | undefined;
  /** How long the provider keeps a prompt cache after its last use. */
  cacheTtlSecs: number;
}

/** The one line a model is sent instead of an older snapshot. */
export function supersededStub(uri: string, newerTurn: number): string {
  return `[superseded: ${uri} — newer content in turn ${newerTurn}]`;
}

/** Whether a text resource is the stub `stubSuperseded` sends instead of an older snapshot. */
export function isSupersededStub(resource: TextResource): boolean {
  return resource.formatted === resource.text && resource.text === `[superseded: ${resource.uri} — newer content in turn ${/turn (\d+)\]$/.exec(resource.text)?.[1] ?? ''}]`;
}

interface Snapshot {
  turn: number;
  uri: string;
}

/** Every snapshot of the stream in order: attachments of each request, then resource blocks of tool results. */
function snapshots(events: readonly ConversationEvent[]): Snapshot[] {
  const out: Snapshot[] = [];
  let turn = -1;
  for (const event of events) {
    if (event.type === 'turn_start') turn++;
    else if (event.type === 'chat_request') for (const resource of (event as ChatRequestEvent).resources) out.push({ turn, uri: resource.uri });
    else if (event.type === 'tool_call_response') {
      for (const block of (event as ToolCallResponseEvent).content) if (block.type === 'resource') out.push({ turn, uri: block.resource.uri });
    }
  }
  return out;
}

const key = (turn: number, uri: string) => `${turn}\u0000${uri}`;

/** The (turn, URI) pairs with a newer snapshot of the same URI later in the stream, in stream order. */
export function supersededCandidates(events: readonly ConversationEvent[]): SupersededMark[] {
  const all = snapshots(events);
  const lastIndex = new Map<string, number>();
  all.forEach((snapshot, index) => lastIndex.set(snapshot.uri, index));
  const seen = new Set<string>();
  const out: SupersededMark[] = [];
  all.forEach((snapshot, index) => {
    if (lastIndex.get(snapshot.uri) === index) return;
    const k = key(snapshot.turn, snapshot.uri);
    if (seen.has(k)) return;
    seen.add(k);
    out.push({ turn: snapshot.turn, uri: snapshot.uri });
  });
  return out;
}

/** The decisions already recorded in the stream's requests. */
export function recordedSuperseded(events: readonly ConversationEvent[]): SupersededMark[] {
  return events.flatMap((event) => (event.type === 'chat_request' ? ((event as ChatRequestEvent).superseded ?? []) : []));
}

/** Whether the provider's prompt cache has expired: no request of this conversation within the TTL. */
export function cacheIsCold(options: Pick<SupersededOptions, 'now' | 'lastRequestAt' | 'cacheTtlSecs'>): boolean {
  return options.lastRequestAt === undefined || options.now - options.lastRequestAt > options.cacheTtlSecs * 1000;
}

/**
 * The snapshots this request starts stubbing, to be recorded in its `chat_request.superseded`.
 * `events` is the stream with the new turn's opening. `keep` stubs nothing new; `omit` every
 * snapshot with a newer one; `omit-when-cold` the same, but only when the cache is cold anyway —
 * stubbing changes the prefix from the first stub on, which a warm cache would pay for;
 * `omit-when-cheaper` like `omit-when-cold`, and while warm too where the reads saved outweigh the
 * rewrite (`warmStubsWorthIt`), assuming the conversation goes on for as many turns as it has had.
 * Marks already recorded are not repeated: they hold for every later request whatever the policy.
 */
export function decideSuperseded(events: readonly ConversationEvent[], options: SupersededOptions): SupersededMark[] {
  if (options.policy === 'keep') return [];
  const warm = !cacheIsCold(options);
  if (options.policy === 'omit-when-cold' && warm) return [];
  const recorded = new Set(recordedSuperseded(events).map((mark) => key(mark.turn, mark.uri)));
  const fresh = supersededCandidates(events).filter((mark) => !recorded.has(key(mark.turn, mark.uri)));
  if (options.policy !== 'omit-when-cheaper' || !warm || fresh.length === 0) return fresh;
  const turnsSoFar = events.filter((event) => event.type === 'turn_start').length - 1;
  return warmStubsWorthIt(placeSnapshots(stubSuperseded(events)), fresh, Math.max(1, turnsSoFar)) ? fresh : [];
}

/** The newest timestamp of the stream, in milliseconds; undefined when it has none that parses. */
export function lastActivityAt(events: readonly ConversationEvent[]): number | undefined {
  let last: number | undefined;
  for (const event of events) {
    const at = typeof event.timestamp === 'string' ? Date.parse(event.timestamp) : Number.NaN;
    if (!Number.isNaN(at) && (last === undefined || at > last)) last = at;
  }
  return last;
}

/**
 * Sends every snapshot named by a recorded mark as a one-line stub (`supersededStub`), never the
 * last snapshot of a URI. A stub is inline text, not a content reference, so deduplication, which
 * runs after this, neither takes it for a delivery nor points a later copy at it: a later copy of
 * the same content is sent in full, and no reference dangles. Pure; events without stubs are
 * returned as the same objects; the stream on disk is never changed.
 */
export function stubSuperseded(events: readonly ConversationEvent[]): ConversationEvent[] {
  const marks = recordedSuperseded(events);
  if (marks.length === 0) return [...events];
  const marked = new Set(marks.map((mark) => key(mark.turn, mark.uri)));
  const all = snapshots(events);
  // For each snapshot (by position), the turn of the next snapshot of its URI.
  const nextTurn: Array<number | undefined> = new Array(all.length);
  const after = new Map<string, number>();
  for (let index = all.length - 1; index >= 0; index--) {
    const { uri, turn } = all[index]!;
    nextTurn[index] = after.get(uri);
    after.set(uri, turn);
  }
  let position = 0;
  let turn = -1;
  const stub = (resource: Resource): Resource => {
    const index = position++;
    const newer = nextTurn[index];
    if (newer === undefined || !marked.has(key(turn, resource.uri))) return resource;
    const text = supersededStub(resource.uri, newer);
    const out: TextResource = { uri: resource.uri, mimeType: 'text/plain', text, formatted: text };
    if (resource.name !== undefined) out.name = resource.name;
    return out;
  };
  return events.map((event) => {
    if (event.type === 'turn_start') turn++;
    if (event.type === 'chat_request') {
      const request = event as ChatRequestEvent;
      const resources = request.resources.map(stub);
      return resources.every((resource, i) => resource === request.resources[i]) ? event : { ...request, resources };
    }
    if (event.type === 'tool_call_response') {
      const response = event as ToolCallResponseEvent;
      let changed = false;
      const content = response.content.map((block): ContentBlock => {
        if (block.type !== 'resource') return block;
        const resource = stub(block.resource);
        if (resource === block.resource) return block;
        changed = true;
        return { ...block, resource, formatted: resource.formatted };
      });
      return changed ? { ...response, content } : event;
    }
    return event;
  });
}
