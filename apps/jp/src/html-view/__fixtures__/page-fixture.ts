import { createHash } from 'node:crypto';
import type { ConversationEvent, RefResource, Usage } from '@jp/core';
import type { ConversationMetadata } from '../../store/conversation-metadata.ts';
import type { ContentReader } from '../content-reader.ts';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const T = '2026-11-26T00:00:00.000Z';

/** Stored content by sha256, and a reader over it that records every read and its cap. */
export class FakeContent implements ContentReader {
  readonly blobs = new Map<string, Uint8Array>();
  readonly reads: Array<{ uri: string; maxBytes: number }> = [];

  ref(uri: string, content: string | Uint8Array, extra: Partial<RefResource> = {}): RefResource {
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    const sha256 = sha(bytes);
    this.blobs.set(sha256, bytes);
    return { uri, ...extra, ref: { sha256, size: bytes.byteLength, encoding: typeof content === 'string' ? 'text' : 'binary' } };
  }

  read(resource: RefResource, maxBytes: number): { bytes: Uint8Array; complete: boolean } {
    this.reads.push({ uri: resource.uri, maxBytes });
    const bytes = this.blobs.get(resource.ref.sha256)!;
    return bytes.byteLength <= maxBytes ? { bytes, complete: true } : { bytes: bytes.subarray(0, maxBytes), complete: false };
  }
}

export const metadata = (over: Partial<ConversationMetadata> = {}): ConversationMetadata => ({ id: 'c1', createdAt: T, lastActivityAt: T, turnCount: 0, ...over });

/** One turn: start, request (with resources), answer with usage. */
export function turn(query: string, resources: RefResource[], answer: string, usage?: Usage, extra: ConversationEvent[] = []): ConversationEvent[] {
  return [
    { type: 'turn_start', timestamp: T },
    { type: 'chat_request', timestamp: T, content: query, resources },
    ...extra,
    { type: 'chat_response', timestamp: T, message: answer, ...(usage ? { usage } : {}) },
  ];
}
