import { byteAxis, tokenAxis, type ValueAxis } from './chart-axis.ts';
import { escapeHtml } from './escape-html.ts';
import { totalTokens, type TurnTokens } from './turn-usage.ts';

/** A turn's resource bytes by what became of them (a snapshot later superseded counts as superseded). */
export interface TurnBytes {
  fresh: number;
  deduplicated: number;
  superseded: number;
}

export interface ChartTurn {
  tokens: TurnTokens;
  bytes: TurnBytes;
}

/** The chart's HTML, and the one rule of the page's style sheet that depends on it. */
export interface UsageChart {
  html: string;
  style: string;
}

/*
 * Geometry. Heights are CSS pixels: a chart is as tall at 390 px as at 1280 px. Widths are
 * percentages of the plot, which fills the page's width, so the bars spread over whatever width
 * there is; the axis labels are text in CSS pixels and never scale with it.
 */
/** The value axis's column, left of the plot. */
const GUTTER = 60;
/** Above the plot: the unit of the value axis. */
const TOP = 18;
/** Below the plot: turn numbers, then the axis title. */
const BOTTOM = 34;
const TOKENS_HEIGHT = 160;
const BYTES_HEIGHT = 80;
/** A bar takes this share of its turn's slot, and no slot is wider than a twelfth of the plot. */
const BAR_SHARE = 0.7;
const WIDEST_SLOTS = 12;
/** The plot is never narrower than this many pixels a turn: beyond the page's width it scrolls. */
const MIN_PX_PER_TURN = 3;
/** The narrowest plot the labels are laid out for: a 390 px phone less the page's padding and the gutter. */
const NARROWEST_PLOT = 280;
/** Turn numbers at least this far apart on the narrowest plot. */
const LABEL_GAP = 40;

const TOKEN_PARTS = [
  ['u', 'uncachedInput', 'uncached input'],
  ['w', 'cacheWrite', 'cache write'],
  ['r', 'cacheRead', 'cache read'],
  ['o', 'answer', 'output'],
  ['x', 'reasoning', 'reasoning'],
] as const;

/** A turn's tokens as the chart stacks them: output split into the answer and the reasoning (RFD 028). */
type ChartTokens = TurnTokens & { answer: number };

const BYTE_PARTS = [
  ['f', 'fresh', 'new or refreshed'],
  ['d', 'deduplicated', 'deduplicated'],
  ['s', 'superseded', 'superseded'],
] as const;

const number = (n: number) => n.toLocaleString('en-US');
/** Three decimals: positions stay exact enough, and the file small. */
const dec = (n: number) => String(Math.round(n * 1000) / 1000);

/** Where turn `i` of `turns` sits, in percent of the plot's width: its slot's start and width, and its bar's. */
function slot(i: number, turns: number): { start: number; width: number; bar: number } {
  const width = 100 / turns;
  const bar = (BAR_SHARE * 100) / Math.max(turns, WIDEST_SLOTS);
  return { start: i * width, width, bar };
}

/** Every how many turns a number is written under the bars, so numbers stay apart on the narrowest plot. */
function labelEvery(turns: number): number {
  const plot = Math.max(NARROWEST_PLOT, turns * MIN_PX_PER_TURN);
  const needed = (LABEL_GAP * turns) / plot;
  return [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000].find((k) => k >= needed) ?? 10_000;
}

/** One stack: its parts from the bottom up, each a rect as tall as its value on the axis; the group carries the numbers. */
function stack(i: number, turns: number, height: number, top: number, parts: Array<[string, number]>, label: string): string {
  const { start, width, bar } = slot(i, turns);
  const x = `${dec(start + (width - bar) / 2)}%`;
  let y = TOP + height;
  let rects = '';
  for (const [cls, value] of parts) {
    if (value <= 0) continue;
    const h = (value / top) * height;
    y -= h;
    rects += `<rect class="${cls}" x="${x}" y="${dec(y)}" width="${dec(bar)}%" height="${dec(h)}"/>`;
  }
  return `<g class="bar" data-turn="${i}" tabindex="0" aria-label="${escapeHtml(label)}">${rects}</g>`;
}

/** One series: the value axis in its own column, the plot (grid, bars, turn numbers) beside it. */
function series(cls: string, title: string, unit: string, empty: string, axis: ValueAxis, height: number, turns: number, bars: string): string {
  const full = TOP + height + BOTTOM;
  const top = axis.ticks.at(-1)!;
  const yOf = (value: number) => dec(TOP + height - (top === 0 ? 0 : (value / top) * height));
  const values = axis.ticks.map((tick) => `<text class="axis" x="${GUTTER - 6}" y="${yOf(tick)}" text-anchor="end" dominant-baseline="middle">${axis.label(tick)}</text>`).join('');
  const grid = axis.ticks.map((tick) => `<line class="grid" x1="0" y1="${yOf(tick)}" x2="100%" y2="${yOf(tick)}"/>`).join('');
  let numbers = '';
  const every = labelEvery(turns);
  for (let turn = 0; turn < turns; turn += every) {
    const { start, width } = slot(turn, turns);
    // A narrow first or last slot would cut its number at the edge: it is aligned inward instead.
    const anchor = turns > WIDEST_SLOTS && turn === 0 ? 'start' : 'middle';
    numbers += `<text class="axis turn-number" x="${dec(anchor === 'start' ? start : start + width / 2)}%" y="${TOP + height + 14}" text-anchor="${anchor}">${turn}</text>`;
  }
  const none = top === 0 ? `<text class="empty" x="50%" y="${TOP + height / 2}" text-anchor="middle" dominant-baseline="middle">${empty}</text>` : '';
  return (
    `<div class="plot-row">` +
    `<svg class="y-axis" width="${GUTTER}" height="${full}" aria-hidden="true"><text class="axis-title" x="${GUTTER - 6}" y="10" text-anchor="end">${unit}</text>${values}</svg>` +
    `<div class="scroll"><svg class="${cls} plot" role="img" aria-label="${title}" width="100%" height="${full}">${grid}${bars}${numbers}` +
    `<text class="axis-title" x="100%" y="${TOP + height + 30}" text-anchor="end">turn</text>${none}</svg></div></div>`
  );
}

/**
 * The per-turn picture as server-side SVG: stacked token bars (uncached input, cache write, cache
 * read, output, reasoning) and, below, the turn's resource bytes (new or refreshed, deduplicated,
 * superseded). Each series has its own value axis, in round steps up to at least its tallest bar,
 * so a bar's height is its total in that series' unit; a series with nothing says so instead of
 * drawing a scale of nothing. The bars spread over the page's width; past three pixels a turn the
 * plot keeps that width and scrolls (the returned style sets it: the page's CSP allows no style
 * attribute, only its own style sheet).
 */
export function usageChart(turns: readonly ChartTurn[]): UsageChart {
  const n = Math.max(turns.length, 1);
  const tokenTotals = turns.map((turn) => totalTokens(turn.tokens));
  const byteTotals = turns.map(({ bytes }) => bytes.fresh + bytes.deduplicated + bytes.superseded);
  const tokens = tokenAxis(Math.max(0, ...tokenTotals));
  const bytes = byteAxis(Math.max(0, ...byteTotals));
  let tokenBars = '';
  let byteBars = '';
  turns.forEach((turn, i) => {
    const t: ChartTokens = { ...turn.tokens, answer: turn.tokens.output - turn.tokens.reasoning };
    const tokenLabel = t.recorded
      ? `turn ${i}: ${TOKEN_PARTS.map(([, key, name]) => `${number(t[key])} ${name}`).join(', ')} tokens`
      : `turn ${i}: no usage recorded`;
    tokenBars += stack(i, n, TOKENS_HEIGHT, tokens.ticks.at(-1)!, TOKEN_PARTS.map(([cls, key]) => [cls, t[key]]), tokenLabel);
    const b = turn.bytes;
    const byteLabel = `turn ${i}: ${BYTE_PARTS.map(([, key, name]) => `${number(b[key])} ${name}`).join(', ')} resource bytes`;
    byteBars += stack(i, n, BYTES_HEIGHT, bytes.ticks.at(-1)!, BYTE_PARTS.map(([cls, key]) => [cls, b[key]]), byteLabel);
  });
  const legend = (parts: ReadonlyArray<readonly [string, string, string]>) => parts.map(([cls, , name]) => `<span class="key ${cls}">${name}</span>`).join(' ');
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const tokenSum = sum(tokenTotals);
  const byteSum = sum(byteTotals);
  const html = [
    '<section class="chart">',
    `<h2>Tokens per turn <small>(${tokenSum === 0 ? 'none recorded' : `${number(tokenSum)} in all`})</small></h2>`,
    `<p class="legend">${legend(TOKEN_PARTS)}</p>`,
    series('tokens', 'tokens per turn', 'tokens', turns.length === 0 ? 'no turns yet' : 'no token usage recorded', tokens, TOKENS_HEIGHT, turns.length, tokenBars),
    `<h2>Resource bytes per turn <small>(${byteSum === 0 ? 'none' : `${number(byteSum)} bytes in all`})</small></h2>`,
    `<p class="legend">${legend(BYTE_PARTS)}</p>`,
    series('bytes', 'resource bytes per turn', 'bytes', turns.length === 0 ? 'no turns yet' : 'no resources attached', bytes, BYTES_HEIGHT, turns.length, byteBars),
    '<p id="readout" aria-live="polite">Hover over or focus a bar (Tab) for its numbers.</p>',
    '</section>',
  ].join('\n');
  const widest = turns.length * MIN_PX_PER_TURN;
  return { html, style: widest > NARROWEST_PLOT ? `svg.plot{min-width:${widest}px}` : '' };
}
