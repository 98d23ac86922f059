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

/** Pixels per turn (bar and gap), the height of each series' tallest bar, and the room for the axes. */
const STEP = 12;
const BAR = 10;
const LEFT = 56;
const TOP = 8;
const BOTTOM = 16;
const TOKENS_HEIGHT = 160;
const BYTES_HEIGHT = 80;
/** A chart is at least this many turns wide, so one turn is a bar, not the whole page. */
const MIN_TURNS = 40;

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
/** Three decimals: heights stay proportional to the numbers, and the file small. */
const px = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * One stack: its parts from the bottom up, each a rect of height value × scale. Parts of zero
 * are left out; the group carries the numbers as its label (shown on hover and focus).
 */
function stack(x: number, height: number, scale: number, parts: Array<[string, number]>, label: string, turn: number): string {
  let top = TOP + height;
  let rects = '';
  for (const [cls, value] of parts) {
    if (value <= 0) continue;
    const h = value * scale;
    top -= h;
    rects += `<rect class="${cls}" x="${x}" y="${px(top)}" width="${BAR}" height="${px(h)}"/>`;
  }
  return `<g class="bar" data-turn="${turn}" tabindex="0" aria-label="${escapeHtml(label)}">${rects}</g>`;
}

/** 12 345 as `12.3k`, 2 000 000 as `2M`: axis labels stay short. */
function compact(n: number): string {
  if (n >= 1e6) return `${Number((n / 1e6).toFixed(1))}M`;
  if (n >= 1e3) return `${Number((n / 1e3).toFixed(1))}k`;
  return String(Math.round(n));
}

/** Every how many turns a turn number is written under the bars: at least 36 units apart. */
function labelEvery(turns: number): number {
  return [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].find((k) => k * STEP >= 36 || k >= turns) ?? 1000;
}

/**
 * The axes: lines and labels at zero, half and the tallest value on the left, and turn numbers
 * under the bars. In the SVG's own units, so they scale with the bars.
 */
function axes(turns: number, height: number, max: number): string {
  const width = LEFT + Math.max(turns, MIN_TURNS) * STEP;
  let out = '';
  for (const share of [0, 0.5, 1]) {
    const y = px(TOP + height - share * height);
    out += `<line class="grid" x1="${LEFT - 4}" y1="${y}" x2="${width}" y2="${y}"/><text class="axis" x="${LEFT - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${compact(share * max)}</text>`;
  }
  const every = labelEvery(turns);
  for (let turn = 0; turn < turns; turn += every) {
    out += `<text class="axis" x="${LEFT + turn * STEP + BAR / 2}" y="${TOP + height + 12}" text-anchor="middle">${turn}</text>`;
  }
  return out;
}

/** Up to this many units wide a chart is stretched to the page's width; wider ones keep one unit a pixel. */
const FILL_UP_TO = 1000;

/**
 * A chart up to a page wide fills the page's width (`width="100%"`, scaled through its viewBox);
 * a wider one (many turns) keeps one unit a pixel and scrolls, instead of shrinking its bars and
 * labels out of sight. (The page's CSP allows no style attributes, so the choice is the width's.)
 */
function svg(cls: string, turns: number, height: number, max: number, title: string, body: string): string {
  const width = LEFT + Math.max(turns, MIN_TURNS) * STEP;
  const full = TOP + height + BOTTOM;
  const shown = width <= FILL_UP_TO ? '100%' : String(width);
  return `<svg class="${cls}" role="img" aria-label="${title}" width="${shown}" viewBox="0 0 ${width} ${full}">${axes(turns, height, max)}${body}</svg>`;
}

/**
 * The per-turn picture as server-side SVG: stacked token bars (uncached input, cache write, cache
 * read, output, reasoning) and, below, the turn's resource bytes (new or refreshed, deduplicated,
 * superseded). Each series is scaled to its tallest bar, so a bar's height is its total in the
 * same unit across turns.
 */
export function usageChart(turns: readonly ChartTurn[]): string {
  const maxTokens = Math.max(1, ...turns.map((turn) => totalTokens(turn.tokens)));
  const maxBytes = Math.max(1, ...turns.map(({ bytes }) => bytes.fresh + bytes.deduplicated + bytes.superseded));
  const tokenScale = TOKENS_HEIGHT / maxTokens;
  const byteScale = BYTES_HEIGHT / maxBytes;
  let tokenBars = '';
  let byteBars = '';
  turns.forEach((turn, i) => {
    const x = LEFT + i * STEP;
    const t: ChartTokens = { ...turn.tokens, answer: turn.tokens.output - turn.tokens.reasoning };
    const tokenLabel = t.recorded
      ? `turn ${i}: ${TOKEN_PARTS.map(([, key, name]) => `${number(t[key])} ${name}`).join(', ')} tokens`
      : `turn ${i}: no usage recorded`;
    tokenBars += stack(x, TOKENS_HEIGHT, tokenScale, TOKEN_PARTS.map(([cls, key]) => [cls, t[key]]), tokenLabel, i);
    const b = turn.bytes;
    const byteLabel = `turn ${i}: ${BYTE_PARTS.map(([, key, name]) => `${number(b[key])} ${name}`).join(', ')} resource bytes`;
    byteBars += stack(x, BYTES_HEIGHT, byteScale, BYTE_PARTS.map(([cls, key]) => [cls, b[key]]), byteLabel, i);
  });
  const legend = (parts: ReadonlyArray<readonly [string, string, string]>) =>
    parts.map(([cls, , name]) => `<span class="key ${cls}">${name}</span>`).join(' ');
  return [
    '<section class="chart">',
    `<h2>Tokens per turn <small>(tallest: ${number(maxTokens)})</small></h2>`,
    `<p class="legend">${legend(TOKEN_PARTS)}</p>`,
    `<div class="scroll">${svg('tokens', turns.length, TOKENS_HEIGHT, maxTokens, 'tokens per turn', tokenBars)}</div>`,
    `<h2>Resource bytes per turn <small>(tallest: ${number(maxBytes)})</small></h2>`,
    `<p class="legend">${legend(BYTE_PARTS)}</p>`,
    `<div class="scroll">${svg('bytes', turns.length, BYTES_HEIGHT, maxBytes, 'resource bytes per turn', byteBars)}</div>`,
    '<p id="readout" aria-live="polite">Hover over or focus a bar (Tab) for its numbers.</p>',
    '</section>',
  ].join('\n');
}
