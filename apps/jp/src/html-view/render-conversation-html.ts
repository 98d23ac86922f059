import { createHash } from 'node:crypto';
import { groupTurns, type ConversationEvent } from '@jp/core';
import type { ConversationMetadata } from '../store/conversation-metadata.ts';
import { FOLD_CAP_BYTES, type ContentReader } from './content-reader.ts';
import { readableTime } from './readable-time.ts';
import { escapeHtml } from './escape-html.ts';
import { costOf, priceOf, type ModelPrice } from './model-prices.ts';
import { PAGE_SCRIPT, PAGE_STYLE } from './page-assets.ts';
import { renderEvent, type EventContext } from './render-event.ts';
import { renderHeader } from './render-header.ts';
import { forEachSnapshot, snapshotStatuses, type SnapshotStatus } from './resource-status.ts';
import { turnModels } from './turn-models.ts';
import { turnTokens, turnUsage, type TurnTokens } from './turn-usage.ts';
import { usageChart, type TurnBytes } from './usage-chart.ts';

export interface ConversationPage {
  id: string;
  metadata: ConversationMetadata;
  /** The stream as stored: resources refer to their content, which `reader` reads when shown. */
  events: readonly ConversationEvent[];
  /** `base-config.json`: the workspace file as the conversation first saw it. */
  baseConfig: Record<string, unknown>;
  /** The model the configuration names now, for turns whose model the stream does not record. */
  currentModel: string | undefined;
  /** Configured prices by `provider/model`, over the defaults. */
  prices: Readonly<Record<string, ModelPrice>>;
  reader: ContentReader;
  /** When the page was made (ISO time), stated at its foot. */
  generatedAt: string;
}

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const number = (n: number) => n.toLocaleString('en-US');

function usageLine(tokens: TurnTokens, model: string | undefined, prices: Readonly<Record<string, ModelPrice>>): string {
  if (!tokens.recorded) return '<p class="usage dim">no usage recorded</p>';
  const price = priceOf(model, prices);
  const cost = price === undefined ? '' : ` · about $${costOf(tokens, price).toFixed(4)}`;
  return (
    `<p class="usage"><span class="key u">${number(tokens.uncachedInput)} uncached input</span> · <span class="key w">${number(tokens.cacheWrite)} cache write</span> · ` +
    `<span class="key r">${number(tokens.cacheRead)} cache read</span> · <span class="key o">${number(tokens.output)} output</span>${cost}</p>`
  );
}

/** Each turn's resource bytes, by what became of each snapshot. */
function bytesPerTurn(events: readonly ConversationEvent[], statuses: readonly SnapshotStatus[], turns: number): TurnBytes[] {
  const bytes = Array.from({ length: turns }, (): TurnBytes => ({ fresh: 0, deduplicated: 0, superseded: 0 }));
  let i = 0;
  forEachSnapshot(events, (_resource, turn) => {
    const status = statuses[i++]!;
    const slot = bytes[Math.min(turn, turns - 1)];
    if (slot === undefined) return;
    if (status.supersededFrom !== undefined) slot.superseded += status.size;
    else if (status.kind === 'deduplicated') slot.deduplicated += status.size;
    else slot.fresh += status.size;
  });
  return bytes;
}

/**
 * The conversation as one self-contained HTML page: header, per-turn chart, then every turn. The
 * page loads nothing (its CSP allows no source but its own inline style and script, by hash, and
 * `data:` images) and every piece of stored text is escaped. Content is read through `reader`
 * only where shown: text snapshots up to `FOLD_CAP_BYTES`, raster images whole, deduplicated
 * snapshots and other binaries not at all.
 */
export function renderConversationHtml(page: ConversationPage): string {
  const { preamble, turns } = groupTurns(page.events);
  const models = turnModels(page.baseConfig, page.events, page.currentModel);
  const tokens = turns.map((turn) => turnTokens(turnUsage(turn)));
  const statuses = snapshotStatuses(page.events);
  const bytes = bytesPerTurn(page.events, statuses, turns.length);
  let next = 0;
  const ctx: EventContext = { reader: page.reader, nextStatus: () => statuses[next++]!, toolNames: new Map() };

  const sections: string[] = [];
  if (preamble.length > 0) sections.push(`<section class="turn" id="preamble"><h2>Before the first turn</h2>${preamble.map((event) => renderEvent(event, ctx)).join('\n')}</section>`);
  turns.forEach((turn, i) => {
    const model = models[i];
    const at = turn.events[0]?.timestamp;
    sections.push(
      `<section class="turn" id="turn-${i}"><h2>Turn ${i} <small>${escapeHtml(model ?? 'model not recorded')}${typeof at === 'string' ? ` · ${escapeHtml(readableTime(at))}` : ''}</small></h2>` +
        usageLine(tokens[i]!, model, page.prices) +
        turn.events.map((event) => renderEvent(event, ctx)).join('\n') +
        '</section>',
    );
  });

  const header = renderHeader(page.id, page.metadata, turns.map((_turn, i) => ({ model: models[i], tokens: tokens[i]! })), page.prices);
  const chart = usageChart(turns.map((_turn, i) => ({ tokens: tokens[i]!, bytes: bytes[i]! })));
  const style = `${PAGE_STYLE}${chart.style}`;
  const csp = `default-src 'none'; style-src ${hash(style)}; script-src ${hash(PAGE_SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const foot =
    `<footer class="dim"><p>Made by <code>jp conversation show --html</code> at ${escapeHtml(readableTime(page.generatedAt))}. ` +
    `Text snapshots hold at most their first ${number(FOLD_CAP_BYTES)} bytes (${FOLD_CAP_BYTES / 1024} KiB) here; images are inline; other binaries are shown as size and sha256.</p></footer>`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.metadata.title ?? `conversation ${page.id}`)} — jp</title>`,
    `<style>${style}</style></head><body>`,
    header,
    `<p class="dim">Text snapshots are folded; each holds at most its first ${FOLD_CAP_BYTES / 1024} KiB here.</p>`,
    chart.html,
    '<main>',
    ...sections,
    '</main>',
    foot,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
