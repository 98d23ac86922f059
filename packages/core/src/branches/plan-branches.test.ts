import { describe, expect, it } from 'vitest';
import { planBranches, type TurnNode } from './plan-branches.ts';

const node = (id: string, parent: string | null, minute: number): TurnNode => ({ id, parent, timestamp: `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z` });

describe('planBranches', () => {
  it('a chain is one line, whatever the ids', () => {
    expect(planBranches([node('@0', null, 0), node('@1', '@0', 1), node('x', '@1', 2)])).toEqual({ main: [0, 1, 2], branches: [] });
  });

  it('two clones’ continuations of one turn: the earlier goes on, the other is a branch sharing the turns before it', () => {
    // Base q0; clone A added a1, a2 (later); clone B added b1 (earlier) — union-merged, A's lines first.
    const nodes = [node('@0', null, 0), node('a1', '@0', 5), node('a2', 'a1', 6), node('b1', '@0', 3), node('b2', 'b1', 7)];
    expect(planBranches(nodes)).toEqual({ main: [0, 3, 4], branches: [{ key: 'a1', turns: [0, 1, 2], shared: 1 }] });
  });

  it('is the same whatever the order of the lines (the other merge direction)', () => {
    const nodes = [node('@0', null, 0), node('b1', '@0', 3), node('b2', 'b1', 7), node('a1', '@0', 5), node('a2', 'a1', 6)];
    const plan = planBranches(nodes);
    const ids = (turns: number[]) => turns.map((i) => nodes[i]!.id);
    expect(ids(plan.main)).toEqual(['@0', 'b1', 'b2']);
    expect(plan.branches.map((branch) => ({ key: branch.key, ids: ids(branch.turns), shared: branch.shared }))).toEqual([{ key: 'a1', ids: ['@0', 'a1', 'a2'], shared: 1 }]);
  });

  it('ties go to the smaller id; three clones give two branches; a branch can branch again', () => {
    const nodes = [node('@0', null, 0), node('c', '@0', 1), node('b', '@0', 1), node('a', '@0', 1), node('b2', 'b', 2), node('b3', 'b', 2)];
    const plan = planBranches(nodes);
    expect(plan.main.map((i) => nodes[i]!.id)).toEqual(['@0', 'a']);
    expect(plan.branches.map((branch) => [branch.key, branch.turns.map((i) => nodes[i]!.id)])).toEqual([
      ['b', ['@0', 'b', 'b2']],
      ['c', ['@0', 'c']],
      ['b3', ['@0', 'b', 'b3']],
    ]);
  });

  it('a parent that is not there counts as the previous turn', () => {
    expect(planBranches([node('@0', null, 0), node('x', 'gone', 1)])).toEqual({ main: [0, 1], branches: [] });
  });
});
