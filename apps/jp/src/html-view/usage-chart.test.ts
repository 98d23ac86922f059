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
    expect(html).toContain('aria-label="turn 1: 200 uncached input, 0 cache write, 1,800 cache read, 200 output, 0 reasoning tokens"');
    expect(html).toContain('aria-label="turn 2: no usage recorded"');
    expect(html).toContain('tabindex="0"');
  });
});

describe('usageChart reasoning', () => {
  it('splits the output bar into the answer and the reasoning the vendor reported (RFD 028)', () => {
    const html = usageChart([{ tokens: turnTokens({ inputTokens: 100, outputTokens: 300, reasoningTokens: 200 }), bytes: { fresh: 0, deduplicated: 0, superseded: 0 } }]);
    const bar = bars(html.split('<svg')[1]!)[0]!;
    expect(bar).toMatch(/<rect class="u"[^>]*\/><rect class="o"[^>]*\/><rect class="x"/);
    const [uncached, answer, reasoning] = heights(bar);
    expect(answer! / uncached!).toBeCloseTo(1, 4);
    expect(reasoning! / uncached!).toBeCloseTo(2, 4);
    expect(html).toContain('100 output, 200 reasoning tokens');
    expect(html).toContain('<span class="key x">reasoning</span>');
  });
});

describe('usageChart axes and width', () => {
  const turn = (output: number) => ({ tokens: { uncachedInput: 100, cacheWrite: 0, cacheRead: 0, output, reasoning: 0, recorded: true }, bytes: { fresh: 10, deduplicated: 0, superseded: 0 } });

  it('one turn fills the page width with a scale and its turn label, the bar not the whole chart', () => {
    const html = usageChart([turn(12_300)]);
    expect(html).toContain('width="100%" viewBox="0 0 536 184"');
    expect(html).toContain('>12.4k</text>');
    expect(html).toContain('>6.2k</text>');
    expect(html).toMatch(/text-anchor="middle">0<\/text>/);
    expect(html).toContain('width="10"');
  });

  it('1 000 turns keep one unit a pixel and scroll, turns labelled every fifth', () => {
    const html = usageChart(Array.from({ length: 1000 }, (_, i) => turn(i)));
    expect(html).toContain('width="12056" viewBox="0 0 12056 184"');
    const labels = [...html.matchAll(/text-anchor="middle">(\d+)<\/text>/g)].map((match) => Number(match[1]));
    expect(labels.slice(0, 4)).toEqual([0, 5, 10, 15, 0, 5, 10, 15].slice(0, 4));
    expect(labels.filter((n) => n === 995)).toHaveLength(2);
  });
});
