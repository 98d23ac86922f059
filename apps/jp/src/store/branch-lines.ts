import { planBranches, type BranchLine, type TurnNode } from '@jp/core';
import type { StoredLine } from './stored-lines.ts';

/**
 * The turns of a stream as the branch plan reads them, from the parsed lines (any may be given;
 * only `turn_start`s count): a turn's own id, or `@<n>` (its place in the file) for lines written
 * before turns had ids, and its parent, or the turn before it.
 */
export function turnNodesOf(jsons: readonly unknown[]): TurnNode[] {
  const nodes: TurnNode[] = [];
  for (const item of jsons) {
    const json = item as { type?: unknown; id?: unknown; parent?: unknown; timestamp?: unknown };
    if (json?.type !== 'turn_start') continue;
    const at = nodes.length;
    const id = typeof json.id === 'string' && json.id !== '' ? json.id : `@${at}`;
    const parent = 'parent' in json ? (typeof json.parent === 'string' ? json.parent : null) : at === 0 ? null : nodes[at - 1]!.id;
    nodes.push({ id, parent, timestamp: typeof json.timestamp === 'string' ? json.timestamp : '' });
  }
  return nodes;
}

const nodesOf = (lines: readonly StoredLine[]) => turnNodesOf(lines.map((stored) => stored.json));

/** The branches of a conversation's stored lines (RFD 029): none unless clones went on from one turn. */
export function branchesOf(lines: readonly StoredLine[]): BranchLine[] {
  return planBranches(nodesOf(lines)).branches;
}

/**
 * The stored lines of one line of the conversation — its own (`branch` undefined) or the branch
 * whose key is given — in line order, turns numbered along it, each `turn_start` holding its id and
 * parent (so a new turn knows which to follow). Lines before the first turn belong to every line.
 * Undefined for a branch that is not there. Without branches the lines come back as they are.
 */
export function selectLine(lines: StoredLine[], branch: string | undefined): StoredLine[] | undefined {
  const nodes = nodesOf(lines);
  const plan = planBranches(nodes);
  if (plan.branches.length === 0 && branch === undefined) return lines;
  const chosen = branch === undefined ? plan.main : plan.branches.find((line) => line.key === branch)?.turns;
  if (chosen === undefined) return undefined;
  const byTurn = new Map<number, StoredLine[]>();
  for (const stored of lines) byTurn.set(stored.turn, [...(byTurn.get(stored.turn) ?? []), stored]);
  const out: StoredLine[] = [...(byTurn.get(-1) ?? [])];
  chosen.forEach((turn, position) => {
    for (const stored of byTurn.get(turn) ?? []) {
      const json = stored.json as { type?: unknown };
      const withIds = json?.type === 'turn_start' ? { ...(stored.json as object), id: nodes[turn]!.id, parent: nodes[turn]!.parent } : stored.json;
      out.push({ ...stored, json: withIds, turn: position });
    }
  });
  return out;
}
