import type { ChatRequestEvent, ConversationEvent, ToolCallRequestEvent, ToolCallResponseEvent } from './conversation-event.ts';
import type { Resource } from './resource.ts';
import type { SupersededMark } from './superseded-snapshots.ts';

/*
 * `omit-when-cheaper` (RFD 020): while the provider's cache is warm, stubbing older snapshots saves
 * reading them on every later request but rewrites the cached history once. The prices are
 * Anthropic's (a cache read costs 0.1× an input token, a cache write 1.25×): it has the highest
 * ratio of rewrite to read of the providers jp speaks to, so a stub that pays there pays on all.
 */
const READ = 0.1;
const WRITE = 1.25;

/** What one snapshot of the stream occupies in a request: where it starts, in bytes, and its size. */
export interface PlacedSnapshot extends SupersededMark {
  offset: number;
  bytes: number;
}

/** The bytes a resource adds to a request: its formatted text when it has one, else its content. */
function resourceBytes(resource: Resource): number {
  if (resource.formatted !== undefined) return resource.formatted.length;
  if ('text' in resource && typeof resource.text === 'string') return resource.text.length;
  if ('ref' in resource && resource.ref !== undefined) return resource.ref.size;
  if ('blob' in resource && resource.blob instanceof Uint8Array) return resource.blob.length;
  return 0;
}

/** Roughly what an event that is not a snapshot adds to a request: its text. Sizes are estimates; the rule only compares them. */
function textBytes(event: ConversationEvent): number {
  switch (event.type) {
    case 'chat_request':
      return (event as ChatRequestEvent).content.length;
    case 'chat_response': {
      const response = event as { message?: string; reasoning?: string; structured?: unknown };
      return response.message?.length ?? response.reasoning?.length ?? JSON.stringify(response.structured ?? null).length;
    }
    case 'tool_call_request':
      return JSON.stringify((event as ToolCallRequestEvent).arguments).length;
    case 'tool_call_response':
      return (event as ToolCallResponseEvent).content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0);
    default:
      return 0;
  }
}

/**
 * Every snapshot of `events` (as they would be sent, so already-stubbed ones count as their stub)
 * with its byte offset, and the offset where the newest turn starts.
 */
export function placeSnapshots(events: readonly ConversationEvent[]): { snapshots: PlacedSnapshot[]; newestTurnAt: number } {
  const snapshots: PlacedSnapshot[] = [];
  let offset = 0;
  let turn = -1;
  let newestTurnAt = 0;
  const place = (resource: Resource) => {
    const bytes = resourceBytes(resource);
    snapshots.push({ turn, uri: resource.uri, offset, bytes });
    offset += bytes;
  };
  for (const event of events) {
    if (event.type === 'turn_start') {
      turn++;
      newestTurnAt = offset;
    }
    offset += textBytes(event);
    if (event.type === 'chat_request') (event as ChatRequestEvent).resources.forEach(place);
    if (event.type === 'tool_call_response') {
      for (const block of (event as ToolCallResponseEvent).content) if (block.type === 'resource') place(block.resource);
    }
  }
  return { snapshots, newestTurnAt };
}

/**
 * Whether stubbing `candidates` now, while the cache is warm, is worth it: the reads they would
 * cost over `horizon` more requests (and this one) against rewriting the rest of the history once,
 * at write price instead of read price. The whole history counts as rewritten: jp's cache
 * breakpoints sit at the newest turns and the static prefix, so a changed byte anywhere in the
 * turns leaves only the static prefix to hit. The answer is all candidates or none.
 */
export function warmStubsWorthIt(placed: { snapshots: PlacedSnapshot[]; newestTurnAt: number }, candidates: readonly SupersededMark[], horizon: number): boolean {
  const wanted = new Set(candidates.map((mark) => `${mark.turn}\u0000${mark.uri}`));
  const saved = placed.snapshots.reduce((sum, snapshot) => sum + (wanted.has(`${snapshot.turn}\u0000${snapshot.uri}`) ? snapshot.bytes : 0), 0);
  const rewritten = placed.newestTurnAt - saved;
  return READ * saved * (horizon + 1) > (WRITE - READ) * rewritten;
}
