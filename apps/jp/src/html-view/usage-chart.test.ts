import { describe, expect, it } from 'vitest';
import { NO_TOKENS, turnTokens } from './turn-usage.ts';
import { usageChart } from './usage-chart.ts';

const heights = (bar: string) => [...bar.matchAll(/height="([\d.]+)"/g)].map((m) => Number(m[1]));
const bars = (svg: string) => [...svg.matchAll(/<g class="bar"[^>]*>(.*?)<\/g>/g)].map((m) => m[0]);

describe('usageChart', () => {
  const turns = [
    { tokens: turnTokens({ inputTokens: 1000, cacheWriteTokens: 800, outputTokens: 100 }), bytes: { fresh: 4000, deduplicated: 0, superseded: 0 } },
    { tokens: turnTokens({ inputTokens: 2000, cacheReadTokens: 1800, outputTokens: 200 }), bytes: { fresh: 0, deduplicated: 4000, superseded: 0 } },
    { tokens: NO_TOKENS, bytes: { fresh: 0, deduplicated: 0, superseded: 2000 } },
  ];
  const html = usageChart(turns);
  const [tokenSvg, byteSvg] = html.split('<svg').slice(1);

  it('draws one stacked bar per turn in each series, its height proportional to the total', () => {
    const tokenBars = bars(tokenSvg!);
    expect(tokenBars).toHaveLength(3);
    const totals = [1100, 2200, 0];
    const sums = tokenBars.map((bar) => heights(bar).reduce((a, b) => a + b, 0));
    expect(sums[1]).toBeCloseTo(160, 2);
    expect(sums[0]! / sums[1]!).toBeCloseTo(totals[0]! / totals[1]!, 4);
    expect(sums[2]).toBe(0);
    // Turn 0: uncached input 200, cache write 800, output 100, bottom up.
    expect(tokenBars[0]).toMatch(/<rect class="u"[^>]*\/><rect class="w"[^>]*\/><rect class="o"/);
    expect(bars(byteSvg!)).toHaveLength(3);
    expect(bars(byteSvg!)[2]).toContain('class="s"');
  });

  it('labels each bar with its numbers, for hover and focus', () => {
    expect(html).toContain('aria-label="turn 1: 200 uncached input, 0 cache write, 1,800 cache read, 200 output tokens"');
    expect(html).toContain('aria-label="turn 2: no usage recorded"');
    expect(html).toContain('tabindex="0"');
  });
});
