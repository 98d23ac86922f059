import { describe, expect, it } from 'vitest';
import { markOpaque } from './mark-opaque.ts';

describe('markOpaque', () => {
  it('replaces the opaque items by their count and keeps the rest', () => {
    const event = { type: 'chat_response', reasoning: 'hm', opaque: { provider: 'anthropic', items: [{ type: 'thinking', signature: 'SECRETSIG' }] } };
    const marked = markOpaque(event);
    expect(marked).toEqual({ type: 'chat_response', reasoning: 'hm', opaque: { provider: 'anthropic', items: 1, stored: true } });
    expect(JSON.stringify(marked)).not.toContain('SECRETSIG');
  });
  it('leaves events without opaque data as they are', () => {
    const event = { type: 'chat_response', message: 'hi' };
    expect(markOpaque(event)).toBe(event);
  });
});
