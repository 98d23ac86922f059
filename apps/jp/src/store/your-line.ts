import { branchRemovedAt, conversationActivity } from './conversation-activity.ts';
import { readTips } from './clone-tips.ts';

/** One line of a diverged conversation, as a notice or `-F json` tells it. */
export interface LineFacts {
  /** `ID` (the conversation's own line by the shared rule) or `ID~KEY`. */
  id: string;
  /** Its turns, the shared ones included. */
  turns: number;
  /** Turns it shares with the line it left. */
  shared: number;
  /** Its newest turn's time. */
  lastActivityAt: string;
}

/** The lines of a conversation two clones went on with, and which is this clone's. */
export interface Lines {
  /** The line this clone goes on with: the one holding its tip, else the shared rule's. */
  yours: LineFacts;
  /** Whether a tip of this clone chose it (not the shared rule). */
  chosen: boolean;
  /** Every other line that is not removed. */
  others: LineFacts[];
}

/**
 * The lines of conversation `id` (its own id) when it diverged (RFD 029), `undefined` when it has
 * one line. This clone's is the line whose last turn is its tip, or whose own turns hold it
 * (another clone went on with it); a tip in the shared turns, or none, is the conversation's own
 * line. A removed branch is nobody's line.
 */
export function linesOf(jpDir: string, id: string, tips: Record<string, string> = readTips(jpDir)): Lines | undefined {
  const activity = conversationActivity(jpDir, id);
  const branches = (activity?.branches ?? []).filter((branch) => branchRemovedAt(activity!, branch.key) === undefined);
  if (activity === undefined || branches.length === 0) return undefined;
  const tip = tips[id];
  const branchLines = branches.map((branch) => ({ facts: { id: `${id}~${branch.key}`, turns: branch.turns, shared: branch.shared, lastActivityAt: branch.lastActivityAt }, branch }));
  const shared = Math.min(...branches.map((branch) => branch.shared));
  const main: LineFacts = { id, turns: activity.turnCount, shared, lastActivityAt: activity.mainLastActivityAt ?? activity.lastActivityAt ?? '' };
  const mine = tip === undefined || tip === activity.mainTip ? undefined : branchLines.find(({ branch }) => branch.tip === tip || branch.own.includes(tip));
  const yours = mine?.facts ?? main;
  const others = [main, ...branchLines.map(({ facts }) => facts)].filter((line) => line.id !== yours.id);
  return { yours, chosen: mine !== undefined || (tip !== undefined && tip === activity.mainTip), others };
}

/** The line a command on conversation `id` goes on with: a branch's id when this clone's turns are there. */
export function lineToContinue(jpDir: string, id: string): string {
  if (id.includes('~')) return id;
  return linesOf(jpDir, id)?.yours.id ?? id;
}
