import { describe, expect, it } from 'vitest';
import { parseEvent, serializeEvent } from './conversation-event.ts';
import type { FreshnessNotice } from './freshness-notice.ts';
import { requestTextWithNotices } from './request-text.ts';

const notice: FreshnessNotice = { uri: 'file:///w/a.rs', status: 'changed', turn: 3, sha256: 'c'.repeat(64), text: 'a.rs changed since it was attached in turn 3' };

describe('requestTextWithNotices', () => {
  it('puts the notices after the user text, one a line, and leaves a request without notices as it was', () => {
    expect(requestTextWithNotices('why?', [notice, { ...notice, text: 'b gone' }])).toBe('why?\n\n[jp] a.rs changed since it was attached in turn 3\n[jp] b gone');
    expect(requestTextWithNotices('', [notice])).toBe('[jp] a.rs changed since it was attached in turn 3');
    expect(requestTextWithNotices('why?', undefined)).toBe('why?');
    expect(requestTextWithNotices('why?', [])).toBe('why?');
  });

  it('round-trips on a chat_request, and a bad notice is rejected', () => {
    const line = JSON.stringify({ type: 'chat_request', timestamp: 't', content: 'q', notices: [notice] }); // the canonical form: no empty resources
    const parsed = parseEvent(JSON.parse(line));
    expect(parsed).toMatchObject({ success: true });
    const event = (parsed as unknown as { event: Parameters<typeof serializeEvent>[0] }).event;
    // Written back, the line is the one read, notice fields and all; read again, the same event.
    expect(JSON.parse(serializeEvent(event))).toEqual(JSON.parse(line));
    expect(parseEvent(JSON.parse(serializeEvent(event)))).toEqual(parsed);
    expect((event as unknown as { notices: FreshnessNotice[] }).notices).toEqual([notice]);
    expect(parseEvent({ type: 'chat_request', timestamp: 't', content: 'q', notices: [{ ...notice, status: 'stale' }] })).toMatchObject({ success: false });
  });
});
