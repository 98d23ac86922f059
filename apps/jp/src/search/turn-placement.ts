import { planBranches } from '@jp/core';
import { turnNodesOf } from '../store/branch-lines.ts';

/** Where a stored line belongs: a conversation (`<id>` or a branch's `<id>~<key>`) and a turn along it. */
export interface Placement {
  id: string;
  turn: number;
}

const TURN_START = Buffer.from('"type":"turn_start"');
const NEWLINE = 0x0a;

/**
 * The turns of one events.jsonl, found from its `turn_start` lines alone (as the activity count
 * finds them), and the lines of turns they make after a union merge (RFD 029): which conversation
 * and turn a byte offset of the file belongs to, the numbers `jp conversation show --turn` takes.
 */
export class TurnPlacement {
  /** Byte offset of each `turn_start` line, in file order. */
  readonly #starts: number[] = [];
  /** Stored turn → its place: the conversation's own line first, then the first branch holding it. */
  readonly #canonical = new Map<number, Placement>();
  /** Per line of turns (by id): stored turn → its number along that line. */
  readonly #lines = new Map<string, Map<number, number>>();

  constructor(bytes: Buffer, base: string) {
    const jsons: unknown[] = [];
    for (let at = bytes.indexOf(TURN_START); at !== -1; ) {
      const start = at === 0 ? 0 : bytes.lastIndexOf(NEWLINE, at - 1) + 1;
      const found = bytes.indexOf(NEWLINE, at);
      const end = found === -1 ? bytes.length : found;
      let json: unknown;
      try {
        json = JSON.parse(bytes.toString('utf8', start, end));
      } catch {
        json = undefined;
      }
      // The text can stand inside a tool's arguments: only a line that is a turn_start counts.
      if ((json as { type?: unknown } | undefined)?.type === 'turn_start') {
        this.#starts.push(start);
        jsons.push(json);
      }
      at = bytes.indexOf(TURN_START, end);
    }
    const plan = planBranches(turnNodesOf(jsons));
    const lines = [{ id: base, turns: plan.main }, ...plan.branches.map((branch) => ({ id: `${base}~${branch.key}`, turns: branch.turns }))];
    for (const { id, turns } of lines) {
      const along = new Map<number, number>();
      turns.forEach((stored, position) => {
        along.set(stored, position);
        if (!this.#canonical.has(stored)) this.#canonical.set(stored, { id, turn: position });
      });
      this.#lines.set(id, along);
    }
  }

  /** How many turns the file holds, every line counted. */
  get storedTurns(): number {
    return this.#starts.length;
  }

  /** The ids of the conversation's lines: its own, then its branches'. */
  get lineIds(): string[] {
    return [...this.#lines.keys()];
  }

  /**
   * The place of the line at byte `offset`: along `line` when given (a conversation or branch id;
   * undefined when that line does not hold the turn), else the conversation's own line, or the
   * first branch that holds the turn. Undefined before the first turn.
   */
  place(offset: number, line?: string): Placement | undefined {
    let low = 0;
    let high = this.#starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#starts[middle]! <= offset) low = middle + 1;
      else high = middle;
    }
    const stored = low - 1;
    if (stored < 0) return undefined;
    if (line === undefined) return this.#canonical.get(stored);
    const turn = this.#lines.get(line)?.get(stored);
    return turn === undefined ? undefined : { id: line, turn };
  }
}
