import type { Turn } from '@jp/core';
import type { ConversationMetadata } from '../store/conversation-metadata.ts';
import { renderTurn } from './render-turn.ts';
import type { PathPrivacy } from './public-uri.ts';
import { turnUri } from './jp-uris.ts';

/**
 * A conversation's transcript as markdown: a heading with its title, what it is (id, times,
 * fork), then every turn (`renderTurn`). Pure.
 */
export function renderTranscript(metadata: ConversationMetadata, turns: readonly Turn[], privacy: PathPrivacy): string {
  const facts = [
    `- id: ${metadata.id}`,
    `- created: ${metadata.createdAt}`,
    `- last activity: ${metadata.lastActivityAt}`,
    `- turns: ${turns.length}${turns.length > 0 ? ` (one turn: ${turnUri(metadata.id, 0).replace(/0$/, '{n}')})` : ''}`,
  ];
  if (metadata.forkedFrom !== undefined) {
    facts.push(`- forked from: ${metadata.forkedFrom.id}${metadata.forkedFrom.turn === null ? '' : ` at turn ${metadata.forkedFrom.turn}`}`);
  }
  const title = privacy.text(metadata.title ?? `Conversation ${metadata.id}`).replace(/\n/g, ' ');
  const parts = [`# ${title}`, facts.join('\n'), ...turns.map((turn) => renderTurn(turn, { conversation: metadata.id, privacy, level: 2 }).trimEnd())];
  return `${parts.join('\n\n')}\n`;
}
