import { AttachmentError } from '@jp/core';
import { CONVERSATION_TEMPLATE, SNAPSHOT_TEMPLATE, TURN_TEMPLATE } from '../mcp-serve/jp-uris.ts';

/** What a `jp://` URI names: a conversation's transcript, one turn, or one stored snapshot. */
export type JpTarget = { id: string; kind: 'transcript' } | { id: string; kind: 'turn'; turn: number } | { id: string; kind: 'snapshot'; sha256: string };

const JP_URI = /^jp:\/\/conversation\/([^/?#]+)(?:\/turn\/(\d+)|\/resource\/([0-9a-fA-F]{64}))?\/?$/;

/**
 * Reads a `jp://conversation/{id}[/turn/{n}|/resource/{sha256}]` URI, the forms `jp mcp serve`
 * serves (RFD 021). Anything else under `jp:` is an attachment error naming the three forms.
 */
export function parseJpUri(input: string): JpTarget {
  const match = JP_URI.exec(input.trim());
  let id: string | undefined;
  try {
    id = match === null ? undefined : decodeURIComponent(match[1]!);
  } catch {
    id = undefined;
  }
  if (match === null || id === undefined || id === '') {
    throw new AttachmentError(input, `${input} is not a jp URI of this workspace; the forms are ${CONVERSATION_TEMPLATE}, ${TURN_TEMPLATE} (n from 0) and ${SNAPSHOT_TEMPLATE}`, {
      code: 'attachment_bad_jp_uri',
    });
  }
  if (match[2] !== undefined) return { id, kind: 'turn', turn: Number(match[2]) };
  if (match[3] !== undefined) return { id, kind: 'snapshot', sha256: match[3].toLowerCase() };
  return { id, kind: 'transcript' };
}
