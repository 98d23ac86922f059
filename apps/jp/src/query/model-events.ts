import { dedupeResources, dropStaleThinking, projectCompactions, requestTextWithNotices, stubSuperseded, resolveResourceContent, utf8Text, type ChatRequestEvent, type ConversationEvent, type DedupeOptions, type RefResource } from '@jp/core';
import type { Provider } from '@jp/providers';
import type { TurnContent } from '../store/turn-content.ts';

/**
 * What the model is sent of the conversation, made before every call: older snapshots the stream
 * marked superseded become one-line stubs (RFD 020), each request's notices join its text, the
 * stream's compactions apply (RFD 027), resources it was given already — and can still see —
 * become references to the earlier delivery (deduplication, RFD 008), then content references are
 * resolved into content — for every provider but one that never reads content (echo describes
 * each resource by its digest). Each stage is a function of the events alone, so request k+1
 * begins with request k, a compaction being the one deliberate break.
 */
export function modelEvents(
  events: readonly ConversationEvent[],
  how: { provider: Provider; content: TurnContent; deduplication: DedupeOptions; texts: Map<string, string>; preservedThinking?: boolean },
): ConversationEvent[] {
  // A model that binds thinking to its prefix is not sent thinking a later rewrite made stale (issue V).
  const kept = how.preservedThinking === true ? dropStaleThinking(events) : events;
  return resolveView(modelView(kept, how.deduplication), how);
}

/** A view's content references resolved into content, for a provider that reads content. */
export function resolveView(view: ConversationEvent[], how: { provider: Provider; content: TurnContent; texts: Map<string, string> }): ConversationEvent[] {
  if (!how.provider.readsContent) return view;
  return resolveResourceContent(view, (resource) => contentOf(resource, how.content, how.texts));
}

/**
 * The model's view with content still referenced: what `modelEvents` sends, before any blob is
 * read (the token estimate and `conversation compact --dry-run` measure this).
 */
export function modelView(events: readonly ConversationEvent[], deduplication: DedupeOptions): ConversationEvent[] {
  // Stubs first: a stub is no delivery, so deduplication never points a later copy at it. Compaction
  // before deduplication for the same reason: a copy the model can no longer see is no delivery.
  const stubbed = stubSuperseded(events);
  const noticed = withNoticesInRequests(stubbed);
  const compacted = projectCompactions(noticed);
  return deduplication.enabled ? dedupeResources(compacted, deduplication) : compacted;
}

/**
 * Each request's freshness notices (RFD 020) and jp's notes (issue V) become part of its text, after the user's: every
 * provider then puts them inside that turn's user message, and nothing before it changes.
 */
export function withNoticesInRequests(events: readonly ConversationEvent[]): ConversationEvent[] {
  return events.map((event) => {
    if (event.type !== 'chat_request') return event;
    const request = event as ChatRequestEvent;
    if ((request.notices === undefined || request.notices.length === 0) && (request.notes === undefined || request.notes.length === 0)) return event;
    const { notices, notes, ...rest } = request;
    return { ...rest, content: requestTextWithNotices(request.content, notices, notes) };
  });
}

/** A reference's content: text decoded once per run (`texts`, by sha256), bytes as the store gives them. */
function contentOf(resource: RefResource, content: TurnContent, texts: Map<string, string>): Uint8Array | string {
  if (resource.ref.encoding !== 'text') return content.read(resource);
  let text = texts.get(resource.ref.sha256);
  if (text === undefined) {
    text = utf8Text(content.read(resource));
    texts.set(resource.ref.sha256, text);
  }
  return text;
}
