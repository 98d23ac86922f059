import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  groupTurns,
  isRefResource,
  JpError,
  mapResources,
  resourceBytes,
  resourceEncoding,
  withContentRef,
  type ChatRequestEvent,
  type RefResource,
  type ToolCallResponseEvent,
  type Turn,
} from '@jp/core';
import { BlobStore } from '../store/blob-store.ts';
import { sha256Of } from '../store/blob-sha256.ts';
import { conversationActivity } from '../store/conversation-activity.ts';
import { branchMetadata, splitConversationId } from '../store/conversation-branch-id.ts';
import { readMetadata, type ConversationMetadata } from '../store/conversation-metadata.ts';
import { readEventsFile } from '../store/events-file.ts';
import { conversationIds, conversationsRoot } from '../store/list-conversations.ts';
import { conversationUri } from './jp-uris.ts';
import { ResourceMissing } from './resource-missing.ts';

/** A conversation as the server shows it: its metadata and turns, every resource a content reference. */
export interface ReadConversation {
  metadata: ConversationMetadata;
  turns: Turn[];
  /** Content of lines that carry it inline (older or hand-edited lines), by sha256. */
  inline: Map<string, Uint8Array>;
}

/** A stored snapshot: the resource as first attached (or returned by a tool), the turn, its bytes. */
export interface ReadSnapshot {
  resource: RefResource;
  turn: number;
  bytes: Uint8Array;
}

/** Each resource of a turn: attachments, then resources in tool results. */
function* turnResources(turn: Turn): Generator<RefResource> {
  for (const event of turn.events) {
    if (event.type === 'chat_request') yield* (event as ChatRequestEvent).resources as RefResource[];
    if (event.type === 'tool_call_response') {
      for (const block of (event as ToolCallResponseEvent).content) if (block.type === 'resource') yield block.resource as RefResource;
    }
  }
}

/**
 * Reads a workspace's conversations for `jp mcp serve`, through the store's own readers, and never
 * writes: no lock, no blob adopted, no torn line cut off. A conversation being appended to by a
 * `jp query` elsewhere reads as it stands; a torn last line is left out (the store's rule).
 */
export class ConversationReader {
  readonly root: string;
  readonly blobs: BlobStore;

  constructor(readonly jpDir: string) {
    this.root = conversationsRoot(jpDir);
    this.blobs = new BlobStore(jpDir);
  }

  /** Conversation ids, sorted (they sort by creation time). */
  ids(): string[] {
    return conversationIds(this.root);
  }

  private dir(id: string): string {
    return path.join(this.root, id);
  }

  /** Its metadata; `undefined` when its metadata.json is damaged. A missing conversation is `ResourceMissing`. */
  metadataOf(id: string): ConversationMetadata | undefined {
    const file = path.join(this.dir(id), 'metadata.json');
    if (id === '' || id.startsWith('.') || id.includes('/') || id.includes('\\') || !existsSync(file)) {
      throw new ResourceMissing(conversationUri(id), `no conversation ${id} in this workspace; resources/list lists them`);
    }
    return readMetadata(id, file);
  }

  /**
   * A conversation's metadata and turns; damage is a `JpError` naming the file (relative to the
   * workspace). A branch (`<id>~<key>`, RFD 029) reads as the line of turns it is.
   */
  read(id: string): ReadConversation {
    const { base, branch } = splitConversationId(id);
    const stored = this.metadataOf(base);
    if (stored === undefined) {
      throw new JpError(`conversation ${base} is damaged: .jp/conversations/${base}/metadata.json is not a JSON object with a "createdAt" time`, {
        code: 'damaged_conversation',
      });
    }
    const line = branch === undefined ? undefined : conversationActivity(this.jpDir, base)?.branches?.find((candidate) => candidate.key === branch);
    if (branch !== undefined && line === undefined) throw new ResourceMissing(conversationUri(id), `conversation ${base} has no branch ${branch}; resources/list lists the conversations`);
    const metadata = line === undefined ? stored : branchMetadata(stored, line);
    const displayName = path.join('.jp', 'conversations', base, 'events.jsonl');
    const loaded = readEventsFile(path.join(this.dir(base), 'events.jsonl'), { displayName, conversation: id, branch });
    const inline = new Map<string, Uint8Array>();
    const events = mapResources(loaded.events, (resource) => {
      if (isRefResource(resource)) return resource;
      const bytes = resourceBytes(resource);
      const sha256 = sha256Of(bytes);
      inline.set(sha256, bytes);
      return withContentRef(resource, { sha256, size: bytes.byteLength, encoding: resourceEncoding(resource) });
    });
    return { metadata, turns: groupTurns(events).turns, inline };
  }

  /** Every distinct snapshot sha256 of a conversation, in the order they first appear. */
  snapshotDigests(conversation: ReadConversation): string[] {
    const seen = new Set<string>();
    for (const turn of conversation.turns) for (const resource of turnResources(turn)) seen.add(resource.ref.sha256);
    return [...seen];
  }

  /**
   * The snapshot with that sha256 in this conversation, where it first appears, with its bytes
   * (verified against the digest). Only snapshots the conversation holds are served: any other
   * blob of the store is `ResourceMissing`.
   */
  snapshot(conversation: ReadConversation, sha256: string, uri: string, shownUri: (stored: string) => string): ReadSnapshot {
    const id = conversation.metadata.id;
    for (const turn of conversation.turns) {
      for (const resource of turnResources(turn)) {
        if (resource.ref.sha256 !== sha256) continue;
        const where = `conversation ${id} turn ${turn.index}, ${shownUri(resource.uri)}`;
        const bytes = conversation.inline.get(sha256) ?? this.blobs.read(sha256, where);
        if (bytes === undefined) {
          throw new JpError(`${where} refers to blob ${this.blobs.displayPath(sha256)}, which is missing; restore it from a backup`, { code: 'missing_blob' });
        }
        return { resource, turn: turn.index, bytes };
      }
    }
    throw new ResourceMissing(uri, `conversation ${id} holds no snapshot with sha256 ${sha256}; its transcript lists the ones it has`);
  }
}
