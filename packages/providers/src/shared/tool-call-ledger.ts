/** What a call without a recorded result (an interrupted turn) is answered with. */
export const INTERRUPTED_TOOL_RESULT = 'no result was recorded for this tool call (interrupted)';

/**
 * The tool calls of a conversation being converted that still wait for their results. Every
 * vendor rejects a call without a result and a result without a call, so a converter asks the
 * ledger before sending either; what it cannot send is reported through `warnings`.
 */
export class ToolCallLedger {
  /** Open calls: id → tool name. */
  readonly #pending = new Map<string, string>();
  /** Calls answered or closed: a later result for one is a repeat, not a stranger. */
  readonly #done = new Set<string>();
  readonly #warnings: string[];

  constructor(warnings: string[]) {
    this.#warnings = warnings;
  }

  open(id: string, name: string): void {
    this.#pending.set(id, name);
  }

  /** The tool name of the open call a result for `id` answers; `undefined` (with a warning) when it is to be skipped. */
  answer(id: string): string | undefined {
    const name = this.#pending.get(id);
    if (name === undefined) {
      this.#warnings.push(`tool result ${id} has no ${this.#done.has(id) ? 'open' : 'matching'} tool call; skipped`);
      return undefined;
    }
    this.#pending.delete(id);
    this.#done.add(id);
    return name;
  }

  /** The calls left without a result, now closed; each is to be sent `INTERRUPTED_TOOL_RESULT` as an error. */
  closeAll(): Array<{ id: string; name: string }> {
    const calls = [...this.#pending].map(([id, name]) => ({ id, name }));
    for (const { id } of calls) {
      this.#warnings.push(`tool call ${id} has no recorded result; sent as an error result`);
      this.#done.add(id);
    }
    this.#pending.clear();
    return calls;
  }
}
