import { describe, expect, it } from 'vitest';
import { isConversationId, newConversationId } from './conversation-id.ts';

describe('conversation ids', () => {
  it('have a fixed shape', () => {
    expect(isConversationId(newConversationId())).toBe(true);
  });

  it('sort by creation time as strings', () => {
    const times = [0, 1, 35, 36, 1_700_000_000_000, 1_800_000_000_000, 2_500_000_000_000];
    const ids = times.map((t) => newConversationId(t));
    expect([...ids].sort()).toEqual(ids);
  });

  it('differ when created in the same millisecond', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newConversationId(1_800_000_000_000)));
    expect(ids.size).toBe(1000);
  });
});
