/** A turn as the branch plan sees it: its id, the turn it follows, when it started. */
export interface TurnNode {
  id: string;
  /** The id of the turn it follows; null for a conversation's first turn. */
  parent: string | null;
  timestamp: string;
}

/** A line of turns that is not the conversation's own: another clone's continuation (RFD 029). */
export interface BranchLine {
  /** The id of its first turn of its own: addressed as `<conversation>~<key>`. */
  key: string;
  /** Its turns, oldest first, as indices into the nodes: the common ones, then its own. */
  turns: number[];
  /** How many turns it shares with the line it left (its own start at this index). */
  shared: number;
}

export interface BranchPlan {
  /** The conversation's own line, as indices into the nodes. */
  main: number[];
  branches: BranchLine[];
}

/** Which child goes on, the same on every clone: the earliest to start, ties by id. */
const first = (nodes: readonly TurnNode[]) => (a: number, b: number) =>
  nodes[a]!.timestamp < nodes[b]!.timestamp ? -1 : nodes[a]!.timestamp > nodes[b]!.timestamp ? 1 : nodes[a]!.id < nodes[b]!.id ? -1 : nodes[a]!.id > nodes[b]!.id ? 1 : a - b;

/**
 * The lines of a conversation whose turns form a tree: after a union merge, two clones' turns that
 * both followed one turn are two children of it. The child that started first (ties: the smaller
 * id) goes on as the conversation; each other child starts a branch that shares the turns before
 * it. Pure, and independent of the order of the nodes: every clone sees the same lines. A parent
 * that is not among the nodes (a damaged or cut history) counts as the previous node in file order.
 */
export function planBranches(nodes: readonly TurnNode[]): BranchPlan {
  const index = new Map<string, number>();
  nodes.forEach((node, i) => {
    if (!index.has(node.id)) index.set(node.id, i);
  });
  const parentOf = nodes.map((node, i) => (node.parent === null ? -1 : (index.get(node.parent) ?? i - 1)));
  if (parentOf.every((parent, i) => parent === i - 1)) return { main: nodes.map((_, i) => i), branches: [] };
  const children = new Map<number, number[]>();
  parentOf.forEach((parent, i) => children.set(parent, [...(children.get(parent) ?? []), i]));
  for (const list of children.values()) list.sort(first(nodes));

  const heads: Array<{ head: number; prefix: number[] }> = [];
  /** From `start`, the first child each time; the others become heads of branches sharing the line so far. */
  const follow = (start: number, prefix: number[]): number[] => {
    const line = [...prefix];
    for (let at: number | undefined = start; at !== undefined; ) {
      line.push(at);
      const next: number[] = children.get(at) ?? [];
      for (const other of next.slice(1)) heads.push({ head: other, prefix: [...line] });
      at = next[0];
    }
    return line;
  };
  const roots = children.get(-1) ?? [];
  const main = roots.length === 0 ? [] : follow(roots[0]!, []);
  for (const other of roots.slice(1)) heads.push({ head: other, prefix: [] });
  const branches: BranchLine[] = [];
  for (let k = 0; k < heads.length; k++) {
    const { head, prefix } = heads[k]!;
    branches.push({ key: nodes[head]!.id, turns: follow(head, prefix), shared: prefix.length });
  }
  return { main, branches };
}
