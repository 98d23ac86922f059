import type { ConversationEvent, FreshnessNotice } from '@jp/core';
import { createProvider, IMPLEMENTED_PROVIDERS } from '@jp/providers';
import { describe, expect, it } from 'vitest';
import { withNoticesInRequests } from './model-events.ts';

const t = 't';
const notice: FreshnessNotice = { uri: 'file:///w/src/main.rs', status: 'changed', turn: 0, sha256: 'c'.repeat(64), text: 'src/main.rs changed since it was attached in turn 0 (call refresh_resource to read it)' };
const NOTICE_LINE = `[jp] ${notice.text}`;
const resource = { uri: 'file:///w/src/main.rs', mimeType: 'text/x-rust', text: 'fn main() {}\n' };

const first: ConversationEvent[] = [
  { type: 'turn_start', timestamp: t },
  { type: 'chat_request', timestamp: t, content: 'look', resources: [resource] } as ConversationEvent,
  { type: 'chat_response', timestamp: t, message: 'seen' } as ConversationEvent,
];
const second: ConversationEvent[] = [
  ...first,
  { type: 'turn_start', timestamp: t },
  { type: 'chat_request', timestamp: t, content: 'and now?', resources: [], notices: [notice] } as ConversationEvent,
];

/** The request body a provider would send, as JSON text. */
const body = (id: (typeof IMPLEMENTED_PROVIDERS)[number], events: ConversationEvent[]) =>
  JSON.stringify(createProvider(id, { apiKey: 'k' }).buildRequest({ model: 'm', events: withNoticesInRequests(events) }).request);

describe('freshness notices in what providers are sent', () => {
  it('become the end of their own request’s text, and leave other events as they were', () => {
    const folded = withNoticesInRequests(second);
    expect(folded.slice(0, 4)).toEqual(second.slice(0, 4));
    expect(folded[4]).toEqual({ type: 'chat_request', timestamp: t, content: `and now?\n\n${NOTICE_LINE}`, resources: [] });
  });

  it.each(IMPLEMENTED_PROVIDERS)('%s puts the notice in the last user message, after everything the earlier request had', (id) => {
    const before = body(id, first);
    const after = body(id, second);
    // The notice is sent once, after the earlier turn's text and resource.
    expect(after.split(JSON.stringify(NOTICE_LINE).slice(1, -1)).length).toBe(2);
    expect(after.indexOf('and now?')).toBeGreaterThan(after.indexOf('look'));
    expect(after.indexOf(JSON.stringify(NOTICE_LINE).slice(1, -1))).toBeGreaterThan(after.indexOf('and now?'));
    // The earlier request's messages are unchanged: without the notice, nothing before the new turn differs.
    const withoutNotice = body(id, second.map((event) => (event.type === 'chat_request' && 'notices' in event ? { ...event, notices: undefined } : event)) as ConversationEvent[]);
    expect(after.replace(`\\n\\n${JSON.stringify(NOTICE_LINE).slice(1, -1)}`, '')).toBe(withoutNotice);
    expect(before.length).toBeLessThan(after.length);
  });
});
