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
    // 5 random base-36 characters: ~60 M suffixes. 1 000 ids in one millisecond collide with a
    // chance near 1 % (the birthday bound; the store retries then), 100 ids with a chance near
    // 1 in 12 000, which this test can afford.
    const ids = new Set(Array.from({ length: 100 }, () => newConversationId(1_800_000_000_000)));
    expect(ids.size).toBe(100);
  });
});
