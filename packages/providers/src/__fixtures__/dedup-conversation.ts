// A conversation that re-attaches and refreshes unchanged resources, for the prefix-stability
// tests with deduplication (RFD 008): request k is what the turn loop sends at its k-th call,
// built from the events so far as the app builds it (`dedupedAsTheAppDoes`).
import { hash } from 'node:crypto';
import {
  dedupeResources,
  loadedResource,
  mapResources,
  resolveResourceContent,
  resourceBytes,
  resourceEncoding,
  withContentRef,
  type ConversationEvent,
  type LoadedResource,
} from '@jp/core';
import { blobResource, chatResponse, PNG_BYTES, textResource, toolCall, toolResult, turn } from './conversation.ts';

export const BIG_TEXT = 'a line of a large file that the model needs to see only once\n'.repeat(10);
export const CHANGED_TEXT = 'the file after an edit, different on every line\n'.repeat(10);
export const BIG_PNG = new Uint8Array([...PNG_BYTES, ...new Uint8Array(600).fill(42)]);

const text = (content: string) => textResource('file:///w/a.txt', content, { name: 'a.txt' });
const png = () => blobResource('file:///w/p.png', 'image/png', BIG_PNG, { name: 'p.png' });

/**
 * Turn 0 attaches a.txt, turn 1 p.png; turn 2 refreshes a.txt through a tool (unchanged); turn 3
 * re-attaches both unchanged; turn 4 attaches an edited a.txt; turn 5 re-attaches the edited one.
 */
export function dedupConversation(): { events: ConversationEvent[]; callEnds: number[] } {
  const events: ConversationEvent[] = [];
  const callEnds: number[] = [];
  const ask = (query: string, resources: LoadedResource[] = []) => {
    events.push(...turn(query, resources));
    callEnds.push(events.length);
  };
  ask('Read a.txt', [text(BIG_TEXT)]);
  events.push(chatResponse('Read it.'));
  ask('And the picture', [png()]);
  events.push(chatResponse('A picture.'));
  ask('Has a.txt changed?');
  events.push(toolCall('call_2', 'refresh_resource', { uri: 'file:///w/a.txt' }));
  events.push(toolResult('call_2', [{ type: 'resource', resource: text(BIG_TEXT) }]));
  callEnds.push(events.length);
  events.push(chatResponse('No.'));
  ask('Both again', [text(BIG_TEXT), png()]);
  events.push(chatResponse('Same as before.'));
  ask('Edited', [text(CHANGED_TEXT)]);
  events.push(chatResponse('Changed.'));
  ask('Edited again?', [text(CHANGED_TEXT)]);
  return { events, callEnds };
}

/**
 * What the app hands a provider for these loaded events: their content stored apart (the stream
 * holds references, which deduplication compares), deduplicated with the default settings, then
 * loaded again by `resolveResourceContent`.
 */
export function dedupedAsTheAppDoes(events: readonly ConversationEvent[]): ConversationEvent[] {
  const store = new Map<string, Uint8Array>();
  const stored = mapResources(events, (resource) => {
    const loaded = loadedResource(resource);
    const bytes = resourceBytes(loaded);
    const sha256 = hash('sha256', bytes, 'hex');
    store.set(sha256, bytes);
    return withContentRef(loaded, { sha256, size: bytes.byteLength, encoding: resourceEncoding(loaded) });
  });
  return resolveResourceContent(dedupeResources(stored, { enabled: true, minBytes: 300 }), (ref) => {
    const content = store.get(ref.ref.sha256);
    if (content === undefined) throw new Error(`no stored content for ${ref.uri}`);
    return content;
  });
}

/** The events each call of the dedup conversation sends. */
export function dedupedCalls(): ConversationEvent[][] {
  const { events, callEnds } = dedupConversation();
  return callEnds.map((end) => dedupedAsTheAppDoes(events.slice(0, end)));
}

export function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** How a string appears inside `JSON.stringify` of a request. */
export const inJson = (value: string) => JSON.stringify(value).slice(1, -1);
export const pngBase64 = () => Buffer.from(BIG_PNG).toString('base64');

/**
 * What the last request must show, whatever the vendor: each content once, and the repeats as
 * references naming where the content was first given.
 */
export const EXPECTED_REFERENCES: Array<[string, number]> = [
  ['same content as file:///w/a.txt attached in turn 0', 2],
  ['same content as file:///w/p.png attached in turn 1', 1],
  ['same content as file:///w/a.txt attached in turn 4', 1],
];
