import { describe, expect, it } from 'vitest';
import { byteAxis, niceTicks, tokenAxis } from './chart-axis.ts';

describe('niceTicks', () => {
  it('counts in round steps from 0 to a top at or above the tallest value', () => {
    expect(niceTicks(61_900)).toEqual([0, 20_000, 40_000, 60_000, 80_000]);
    expect(niceTicks(45_000)).toEqual([0, 20_000, 40_000, 60_000]);
    expect(niceTicks(12_300)).toEqual([0, 5_000, 10_000, 15_000]);
    expect(niceTicks(100)).toEqual([0, 25, 50, 75, 100]);
  });

  it('takes no fractional step for whole things, and has the one tick 0 when there is nothing', () => {
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(0)).toEqual([0]);
  });
});

describe('tokenAxis and byteAxis', () => {
  it('labels every tick differently, never 1, 1, 0', () => {
    for (const max of [0, 1, 2, 3, 7, 999, 1001, 12_345, 2_500_000]) {
      const axis = tokenAxis(max);
      const labels = axis.ticks.map(axis.label);
      expect(new Set(labels).size, `${max}: ${labels.join(', ')}`).toBe(labels.length);
      expect(axis.ticks.at(-1)!).toBeGreaterThanOrEqual(max);
    }
    expect(tokenAxis(1).ticks.map(tokenAxis(1).label)).toEqual(['0', '1']);
    expect(tokenAxis(61_900).ticks.map(tokenAxis(61_900).label)).toEqual(['0', '20k', '40k', '60k', '80k']);
  });

  it('writes bytes in the unit of the tallest value, in round steps of it', () => {
    const axis = byteAxis(1_300);
    expect(axis.ticks.map(axis.label)).toEqual(['0', '0.5 KiB', '1 KiB', '1.5 KiB']);
    const big = byteAxis(3 * 1024 * 1024);
    expect(big.ticks.map(big.label)).toEqual(['0', '1 MiB', '2 MiB', '3 MiB']);
    const small = byteAxis(3);
    expect(small.ticks.map(small.label)).toEqual(['0', '1 B', '2 B', '3 B']);
    expect(byteAxis(0).ticks).toEqual([0]);
  });
});
