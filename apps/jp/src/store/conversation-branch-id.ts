import type { Activity } from './conversation-activity.ts';
import type { ConversationMetadata } from './conversation-metadata.ts';

/**
 * A conversation's id, or one of its branches' (`<id>~<key>`, RFD 029): the turns another clone
 * went on with from a common turn, kept in the same events.jsonl.
 */
export function splitConversationId(id: string): { base: string; branch: string | undefined } {
  const at = id.indexOf('~');
  return at === -1 ? { base: id, branch: undefined } : { base: id.slice(0, at), branch: id.slice(at + 1) };
}

/** A branch as a conversation of its own in listings: its turns, a title that says what it is, forked from the common turn. */
export function branchMetadata(base: ConversationMetadata, branch: NonNullable<Activity['branches']>[number]): ConversationMetadata {
  const turn = branch.shared - 1;
  return {
    ...base,
    id: `${base.id}~${branch.key}`,
    title: `${base.title ?? base.id} (continued elsewhere after turn ${turn})`,
    turnCount: branch.turns,
    lastActivityAt: branch.lastActivityAt > base.createdAt ? branch.lastActivityAt : base.createdAt,
    forkedFrom: { id: base.id, turn },
  };
}
