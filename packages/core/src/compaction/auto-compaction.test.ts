import { describe, expect, it } from 'vitest';
import { autoCompactionVerdict } from './auto-compaction.ts';

describe('autoCompactionVerdict', () => {
  const window = 200_000;
  const threshold = 0.9;
  it('compacts when the compaction brings the request down to 0.7 of the window', () => {
    expect(autoCompactionVerdict({ before: 185_000, after: 140_000, window, threshold })).toBe('compact');
    expect(autoCompactionVerdict({ before: 185_000, after: 90_000, window, threshold })).toBe('compact');
  });
  it('does not break the cache for a compaction that leaves the request near the threshold', () => {
    expect(autoCompactionVerdict({ before: 185_000, after: 170_000, window, threshold })).toBe('not-enough');
    expect(autoCompactionVerdict({ before: 185_000, after: 141_000, window, threshold })).toBe('not-enough');
  });
  it('compacts short of the target when the request would not fit at all without it', () => {
    expect(autoCompactionVerdict({ before: 210_000, after: 190_000, window, threshold })).toBe('compact');
    expect(autoCompactionVerdict({ before: 260_000, after: 205_000, window, threshold })).toBe('not-enough');
  });
  it('keeps a margin under a low threshold too', () => {
    expect(autoCompactionVerdict({ before: 60_000, after: 49_000, window: 100_000, threshold: 0.6 })).toBe('not-enough');
    expect(autoCompactionVerdict({ before: 60_000, after: 40_000, window: 100_000, threshold: 0.6 })).toBe('compact');
  });
});
