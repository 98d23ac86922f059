import type { ContentBlock } from './content-block.ts';
import type { ChatRequestEvent, ConversationEvent, ToolCallResponseEvent } from './conversation-event.ts';
import type { Resource } from './resource.ts';
import { isRefResource } from './resource-content.ts';
import { turnNumber } from './turns.ts';

export interface DedupeOptions {
  /** `conversation.deduplication.enabled`: when false the events are returned as they are. */
  enabled: boolean;
  /** `conversation.deduplication.min_bytes`: smaller resources are always sent in full. */
  minBytes: number;
}

/** Where a resource's content was first delivered in full. */
interface Delivery {
  turn: number;
  /** The tool call whose result carried it; absent for an attachment. */
  toolCallId?: string | undefined;
}

/** The text a model sees instead of content it has already been given. */
export function dedupeReference(uri: string, sha256: string, first: Delivery): string {
  const where =
    first.toolCallId === undefined ? `attached in turn ${first.turn}` : `returned by tool call ${first.toolCallId} in turn ${first.turn}`;
  return `[unchanged: same content as ${uri} ${where} (sha256 ${sha256}); not repeated here]`;
}

/**
 * Replaces every resource whose content the model has already been given by a short reference
 * (RFD 008). A resource is a repeat when an earlier event of the stream — an attachment of an
 * earlier turn or an earlier tool result — carried the same canonical URI with the same sha256,
 * and its raw size is at least `minBytes`. Digests are those of content references: the stream
 * holds references (the app stores content apart before a turn is converted), and a resource
 * with its content inline is never taken for a repeat. The repeat keeps its URI and metadata; its `formatted`
 * (and, in a tool result, the block's `formatted`) becomes the reference, which every provider
 * sends instead of the content.
 *
 * Pure, and each event's outcome depends only on the events before it, so the conversion of a
 * longer stream begins with the conversion of a shorter one (prompt caches keep hitting). Two
 * copies inside one event are both sent. The input is not changed; events without repeats are
 * returned as the same objects.
 */
export function dedupeResources(events: readonly ConversationEvent[], options: DedupeOptions): ConversationEvent[] {
  if (!options.enabled) return [...events];
  // By URI, then content: one entry per URI in the usual case of one content each, so no key
  // string is built per resource (a tree's ten thousand, at every conversion of the stream).
  const delivered = new Map<string, { sha256: string; first: Delivery; others?: Map<string, Delivery> }>();
  let turn = -1;

  const firstDelivery = (uri: string, sha256: string): Delivery | undefined => {
    const known = delivered.get(uri);
    if (known === undefined) return undefined;
    return known.sha256 === sha256 ? known.first : known.others?.get(sha256);
  };

  /**
   * The reference for each resource of one event (`undefined`: send it), then its deliveries
   * recorded unless `last` (no event after it could repeat them).
   */
  const verdicts = (resources: readonly Resource[], source: Delivery, last: boolean): Array<string | undefined> => {
    const out = resources.map((resource) => {
      if (!isRefResource(resource) || !delivered.has(resource.uri)) return undefined;
      const { sha256, size } = resource.ref;
      const first = firstDelivery(resource.uri, sha256);
      return first !== undefined && size >= options.minBytes ? dedupeReference(resource.uri, sha256, first) : undefined;
    });
    if (last) return out;
    for (const resource of resources) {
      if (!isRefResource(resource)) continue;
      const { sha256 } = resource.ref;
      const known = delivered.get(resource.uri);
      if (known === undefined) delivered.set(resource.uri, { sha256, first: source });
      else if (known.sha256 !== sha256 && known.others?.has(sha256) !== true) (known.others ??= new Map()).set(sha256, source);
    }
    return out;
  };

  const carries = (event: ConversationEvent) => event.type === 'chat_request' || event.type === 'tool_call_response';
  const lastCarrying = events.findLastIndex(carries);
  return events.map((event, index) => {
    if (event.type === 'turn_start') turn = turnNumber(event, turn);
    if (event.type === 'chat_request') {
      const request = event as ChatRequestEvent;
      return dedupeRequest(request, verdicts(request.resources, { turn }, index === lastCarrying));
    }
    if (event.type === 'tool_call_response') {
      const response = event as ToolCallResponseEvent;
      const resources = response.content.flatMap((block) => (block.type === 'resource' ? [block.resource] : []));
      return dedupeToolResponse(response, verdicts(resources, { turn, toolCallId: response.id }, index === lastCarrying));
    }
    return event;
  });
}

function dedupeRequest(event: ChatRequestEvent, references: ReadonlyArray<string | undefined>): ChatRequestEvent {
  if (references.every((reference) => reference === undefined)) return event;
  return {
    ...event,
    resources: event.resources.map((resource, i) => {
      const reference = references[i];
      return reference === undefined ? resource : { ...resource, formatted: reference };
    }),
  };
}

function dedupeToolResponse(event: ToolCallResponseEvent, references: ReadonlyArray<string | undefined>): ToolCallResponseEvent {
  if (references.every((reference) => reference === undefined)) return event;
  let index = 0;
  const content = event.content.map((block): ContentBlock => {
    if (block.type !== 'resource') return block;
    const reference = references[index++];
    if (reference === undefined) return block;
    return { ...block, resource: { ...block.resource, formatted: reference }, formatted: reference };
  });
  return { ...event, content };
}
