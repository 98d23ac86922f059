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

/** Pixels per turn (bar and gap) and the height of each series' tallest bar. */
const STEP = 12;
const BAR = 10;
const LEFT = 4;
const TOKENS_HEIGHT = 160;
const BYTES_HEIGHT = 80;

const TOKEN_PARTS = [
  ['u', 'uncachedInput', 'uncached input'],
  ['w', 'cacheWrite', 'cache write'],
  ['r', 'cacheRead', 'cache read'],
  ['o', 'output', 'output'],
] as const;

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
  let top = height;
  let rects = '';
  for (const [cls, value] of parts) {
    if (value <= 0) continue;
    const h = value * scale;
    top -= h;
    rects += `<rect class="${cls}" x="${x}" y="${px(top)}" width="${BAR}" height="${px(h)}"/>`;
  }
  return `<g class="bar" data-turn="${turn}" tabindex="0" aria-label="${escapeHtml(label)}">${rects}</g>`;
}

function svg(cls: string, turns: number, height: number, title: string, body: string): string {
  const width = LEFT + turns * STEP;
  return `<svg class="${cls}" role="img" aria-label="${title}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
}

/**
 * The per-turn picture as server-side SVG: stacked token bars (uncached input, cache write, cache
 * read, output) and, below, the turn's resource bytes (new or refreshed, deduplicated,
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
    const t = turn.tokens;
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
    `<div class="scroll">${svg('tokens', turns.length, TOKENS_HEIGHT, 'tokens per turn', tokenBars)}</div>`,
    `<h2>Resource bytes per turn <small>(tallest: ${number(maxBytes)})</small></h2>`,
    `<p class="legend">${legend(BYTE_PARTS)}</p>`,
    `<div class="scroll">${svg('bytes', turns.length, BYTES_HEIGHT, 'resource bytes per turn', byteBars)}</div>`,
    '<p id="readout" aria-live="polite">Hover over or focus a bar (Tab) for its numbers.</p>',
    '</section>',
  ].join('\n');
}
