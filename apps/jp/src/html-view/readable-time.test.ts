import { describe, expect, it } from 'vitest';
import { readableTime } from './readable-time.ts';

describe('readableTime', () => {
  it('shows a stored time in the given zone with its offset', () => {
    expect(readableTime('2026-11-28T19:45:03.123Z', 'UTC')).toBe('2026-11-28 19:45:03 (UTC)');
    expect(readableTime('2026-11-28T19:45:03.123Z', 'Europe/Paris')).toBe('2026-11-28 20:45:03 (UTC+01:00)');
    expect(readableTime('2026-07-01T00:30:00Z', 'America/New_York')).toBe('2026-06-30 20:30:00 (UTC-04:00)');
  });

  it('leaves what it cannot read as stored', () => {
    expect(readableTime('not a time')).toBe('not a time');
  });
});
