import { isRefResource, resourceByteLength, resourceBytes, type ChatRequestEvent, type ConversationEvent, type Resource, type ToolCallResponseEvent } from '@jp/core';
import { createHash } from 'node:crypto';

/**
 * What a snapshot was when it was taken: the first of its URI (`new`), different content at a
 * URI seen before (`refreshed`), or the same content as an earlier snapshot of its URI
 * (`deduplicated`: jp sends the model a reference to the earlier one, RFD 008).
 */
export type SnapshotKind = 'new' | 'refreshed' | 'deduplicated';

export interface SnapshotStatus {
  kind: SnapshotKind;
  sha256: string;
  size: number;
  /** The turn of the earlier snapshot with the same content, for `deduplicated`. */
  sameAsTurn?: number;
  /** The turn from whose request on this snapshot is sent as a stub (RFD 020), when one is recorded. */
  supersededFrom?: number;
  /** With `supersededFrom`: the turn holding the newer content of the same URI. */
  newerIn?: number;
}

/** The sha256 of a resource's content: its reference's, or computed for content stored inline (older lines). */
export function snapshotSha256(resource: Resource): string {
  if (isRefResource(resource)) return resource.ref.sha256;
  return createHash('sha256').update(resourceBytes(resource)).digest('hex');
}

/**
 * The status of every snapshot of the stream, in stream order (each request's attachments, then
 * the resources of each tool result), the order `forEachSnapshot` walks them in. Reads no content.
 */
export function snapshotStatuses(events: readonly ConversationEvent[]): SnapshotStatus[] {
  const marks = new Map<string, number>();
  let turn = -1;
  for (const event of events) {
    if (event.type === 'turn_start') turn++;
    if (event.type !== 'chat_request') continue;
    for (const mark of (event as ChatRequestEvent).superseded ?? []) {
      const key = `${mark.turn}\u0000${mark.uri}`;
      if (!marks.has(key)) marks.set(key, Math.max(turn, 0));
    }
  }
  const latest = new Map<string, { sha256: string; turn: number }>();
  const statuses: SnapshotStatus[] = [];
  const places: Array<{ uri: string; turn: number }> = [];
  forEachSnapshot(events, (resource, at) => {
    places.push({ uri: resource.uri, turn: at });
    const sha256 = snapshotSha256(resource);
    const before = latest.get(resource.uri);
    const status: SnapshotStatus = { kind: before === undefined ? 'new' : before.sha256 === sha256 ? 'deduplicated' : 'refreshed', sha256, size: resourceByteLength(resource) };
    if (status.kind === 'deduplicated') status.sameAsTurn = before!.turn;
    const superseded = marks.get(`${at}\u0000${resource.uri}`);
    if (superseded !== undefined) status.supersededFrom = superseded;
    if (status.kind !== 'deduplicated') latest.set(resource.uri, { sha256, turn: at });
    statuses.push(status);
  });
  // Which later turn holds the newer content of a superseded snapshot: the first later snapshot of
  // its URI with other content. Only superseded snapshots ask, so a forward search is cheap enough.
  statuses.forEach((status, i) => {
    if (status.supersededFrom === undefined) return;
    const { uri, turn } = places[i]!;
    for (let j = i + 1; j < statuses.length; j += 1) {
      if (places[j]!.uri === uri && places[j]!.turn > turn && statuses[j]!.sha256 !== status.sha256) {
        status.newerIn = places[j]!.turn;
        return;
      }
    }
  });
  return statuses;
}

/** Calls `visit` with every snapshot of the stream and its turn (0-based; before the first turn counts as 0). */
export function forEachSnapshot(events: readonly ConversationEvent[], visit: (resource: Resource, turn: number) => void): void {
  let turn = -1;
  for (const event of events) {
    if (event.type === 'turn_start') turn++;
    else if (event.type === 'chat_request') for (const resource of (event as ChatRequestEvent).resources) visit(resource, Math.max(turn, 0));
    else if (event.type === 'tool_call_response') {
      for (const block of (event as ToolCallResponseEvent).content) if (block.type === 'resource') visit(block.resource, Math.max(turn, 0));
    }
  }
}
