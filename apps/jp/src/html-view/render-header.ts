import type { ConversationMetadata } from '../store/conversation-metadata.ts';
import { readableTime } from './readable-time.ts';
import { escapeHtml } from './escape-html.ts';
import { costOf, priceOf, type ModelPrice } from './model-prices.ts';
import { addTokens, NO_TOKENS, type TurnTokens } from './turn-usage.ts';

export interface HeaderTurn {
  model: string | undefined;
  tokens: TurnTokens;
}

const number = (n: number) => n.toLocaleString('en-US');

/** The estimated cost, and what it leaves out: turns with usage whose model has no known price. */
export function estimateCost(turns: readonly HeaderTurn[], prices: Readonly<Record<string, ModelPrice>>): { dollars: number; priced: number; unpriced: Set<string> } {
  let dollars = 0;
  let priced = 0;
  const unpriced = new Set<string>();
  for (const turn of turns) {
    if (!turn.tokens.recorded) continue;
    const price = priceOf(turn.model, prices);
    if (price === undefined) {
      unpriced.add(turn.model ?? 'unrecorded model');
      continue;
    }
    dollars += costOf(turn.tokens, price);
    priced++;
  }
  return { dollars, priced, unpriced };
}

function costLine(turns: readonly HeaderTurn[], prices: Readonly<Record<string, ModelPrice>>): string {
  const { dollars, priced, unpriced } = estimateCost(turns, prices);
  const missing = [...unpriced].map(escapeHtml).join(', ');
  if (priced === 0) return missing === '' ? 'no usage recorded' : `not shown: no price known for ${missing} (set <code>providers.&lt;p&gt;.prices</code>)`;
  const withUsage = turns.filter((turn) => turn.tokens.recorded).length;
  const partial = priced < withUsage ? ` for ${priced} of ${withUsage} turns (no price known for ${missing})` : '';
  return `about $${dollars.toFixed(dollars < 1 ? 4 : 2)}${partial}`;
}

/** Title, id, models, turn count, fork origin, token totals and the estimated cost. */
export function renderHeader(id: string, metadata: ConversationMetadata, turns: readonly HeaderTurn[], prices: Readonly<Record<string, ModelPrice>>): string {
  const total = turns.reduce((sum, turn) => addTokens(sum, turn.tokens), NO_TOKENS);
  const models = [...new Set(turns.map((turn) => turn.model ?? 'unrecorded'))];
  const forked = metadata.forkedFrom
    ? `${escapeHtml(metadata.forkedFrom.id)}${metadata.forkedFrom.turn === null ? ' (no turns)' : ` at turn ${metadata.forkedFrom.turn}`}`
    : undefined;
  const facts: Array<[string, string]> = [
    ['id', `<code>${escapeHtml(id)}</code>`],
    ['models', models.length > 0 ? models.map((model) => `<code>${escapeHtml(model)}</code>`).join(', ') : '—'],
    ['turns', number(turns.length)],
    ...(forked ? ([['forked from', forked]] as Array<[string, string]>) : []),
    ['created', escapeHtml(readableTime(metadata.createdAt))],
    ['input tokens', `${number(total.uncachedInput + total.cacheRead + total.cacheWrite)} (${number(total.uncachedInput)} uncached)`],
    ['cache read', number(total.cacheRead)],
    ['cache write', number(total.cacheWrite)],
    ['output tokens', number(total.output)],
    ['estimated cost', costLine(turns, prices)],
  ];
  return [
    '<header>',
    `<h1>${escapeHtml(metadata.title ?? `conversation ${id}`)}</h1>`,
    `<dl class="facts">${facts.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('')}</dl>`,
    '</header>',
  ].join('\n');
}
