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
  const { html } = usageChart(turns);
  const [tokenSvg, byteSvg] = html.split('<svg class="').filter((part) => part.includes('plot"'));

  it('draws one stacked bar per turn in each series, its height proportional to the total', () => {
    const tokenBars = bars(tokenSvg!);
    expect(tokenBars).toHaveLength(3);
    const totals = [1100, 2200, 0];
    const sums = tokenBars.map((bar) => heights(bar).reduce((a, b) => a + b, 0));
    // The axis goes 0, 1k, 2k, 3k: 2 200 tokens are 2.2/3 of its 160 pixels.
    expect(sums[1]).toBeCloseTo((160 * 2200) / 3000, 2);
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
    const { html } = usageChart([{ tokens: turnTokens({ inputTokens: 100, outputTokens: 300, reasoningTokens: 200 }), bytes: { fresh: 0, deduplicated: 0, superseded: 0 } }]);
    const bar = bars(html)[0]!;
    expect(bar).toMatch(/<rect class="u"[^>]*\/><rect class="o"[^>]*\/><rect class="x"/);
    const [uncached, answer, reasoning] = heights(bar);
    expect(answer! / uncached!).toBeCloseTo(1, 4);
    expect(reasoning! / uncached!).toBeCloseTo(2, 4);
    expect(html).toContain('100 output, 200 reasoning tokens');
    expect(html).toContain('<span class="key x">reasoning</span>');
  });
});

describe('usageChart axes and width', () => {
  const turn = (output: number, fresh = 10) => ({ tokens: { uncachedInput: 100, cacheWrite: 0, cacheRead: 0, output, reasoning: 0, recorded: true }, bytes: { fresh, deduplicated: 0, superseded: 0 } });
  const axisLabels = (html: string, series: 'tokens' | 'bytes') => {
    const axis = html.split('<svg class="y-axis"')[series === 'tokens' ? 1 : 2]!.split('</svg>')[0]!;
    return [...axis.matchAll(/text-anchor="end" dominant-baseline="middle">([^<]*)<\/text>/g)].map((m) => m[1]);
  };

  it('labels the value axis in round steps up to at least the tallest bar, with its unit, and the turn axis', () => {
    const { html } = usageChart([turn(12_300, 1300)]);
    expect(axisLabels(html, 'tokens')).toEqual(['0', '5k', '10k', '15k']);
    expect(axisLabels(html, 'bytes')).toEqual(['0', '0.5 KiB', '1 KiB', '1.5 KiB']);
    expect(html).toContain('>tokens</text>');
    expect(html).toContain('>turn</text>');
    expect(html).toContain('(12,400 in all)');
  });

  it('one turn: a bar of its own width in the middle of the plot, not the whole plot', () => {
    const { html, style } = usageChart([turn(100)]);
    const rect = /<rect class="u" x="([\d.]+)%" y="[\d.]+" width="([\d.]+)%"/.exec(html)!;
    const [x, width] = [Number(rect[1]), Number(rect[2])];
    expect(width).toBeCloseTo(70 / 12, 2);
    expect(x + width / 2).toBeCloseTo(50, 2);
    expect(style).toBe('');
  });

  it('an empty chart says so, with the one label 0 (not "tallest: 1" over 1, 1, 0)', () => {
    const nothing = { tokens: { ...turn(0).tokens, uncachedInput: 0, recorded: false }, bytes: { fresh: 0, deduplicated: 0, superseded: 0 } };
    const { html } = usageChart([nothing, nothing]);
    expect(axisLabels(html, 'tokens')).toEqual(['0']);
    expect(axisLabels(html, 'bytes')).toEqual(['0']);
    expect(html).toContain('>no token usage recorded</text>');
    expect(html).toContain('>no resources attached</text>');
    expect(html).not.toContain('tallest');
    expect(usageChart([]).html).toContain('>no turns yet</text>');
  });

  it('1 000 turns: slots of a thousandth of the plot, at least 3 px a turn (it scrolls), numbers every 20 turns', () => {
    const { html, style } = usageChart(Array.from({ length: 1000 }, (_, i) => turn(i)));
    expect(style).toBe('svg.plot{min-width:3000px}');
    const numbers = [...html.matchAll(/class="axis turn-number"[^>]*>(\d+)<\/text>/g)].map((match) => Number(match[1]));
    expect(numbers.slice(0, 4)).toEqual([0, 20, 40, 60]);
    expect(numbers.filter((n) => n === 980)).toHaveLength(2);
    // 40 px apart at 3 px a turn: 20 turns.
    expect(html).toMatch(/<text class="axis turn-number" x="2.05%"[^>]*>20<\/text>/);
  });

  it('few turns: every turn numbered, spread over the width', () => {
    const { html } = usageChart([turn(1), turn(2), turn(3), turn(4)]);
    const xs = [...html.split('<svg class="tokens')[1]!.split('</svg>')[0]!.matchAll(/class="axis turn-number" x="([\d.]+)%"/g)].map((match) => Number(match[1]));
    expect(xs).toEqual([12.5, 37.5, 62.5, 87.5]);
  });
});
