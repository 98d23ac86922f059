/** The URI templates `jp mcp serve` offers (RFC 6570, level 1): one conversation, one turn, one stored snapshot. */
export const CONVERSATION_TEMPLATE = 'jp://conversation/{id}';
export const TURN_TEMPLATE = 'jp://conversation/{id}/turn/{n}';
export const SNAPSHOT_TEMPLATE = 'jp://conversation/{id}/resource/{sha256}';

export function conversationUri(id: string): string {
  return `jp://conversation/${encodeURIComponent(id)}`;
}

export function turnUri(id: string, turn: number): string {
  return `${conversationUri(id)}/turn/${turn}`;
}

export function snapshotUri(id: string, sha256: string): string {
  return `${conversationUri(id)}/resource/${sha256}`;
}
