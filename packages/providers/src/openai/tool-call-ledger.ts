/**
 * The tool calls of a conversation being converted that still wait for their results. OpenAI-style
 * APIs reject a call without a result and a result without a call, so a converter asks the ledger
 * before sending either; what it cannot send is reported through `warnings`.
 */
export class ToolCallLedger {
  readonly #pending = new Set<string>();
  readonly #answered = new Set<string>();
  readonly #warnings: string[];

  constructor(warnings: string[]) {
    this.#warnings = warnings;
  }

  open(id: string): void {
    this.#pending.add(id);
  }

  /** Whether a result for `id` answers an open call; if not, it is to be skipped (with a warning). */
  answer(id: string): boolean {
    if (this.#pending.delete(id)) {
      this.#answered.add(id);
      return true;
    }
    this.#warnings.push(`tool result ${id} has no ${this.#answered.has(id) ? 'open' : 'matching'} tool call; skipped`);
    return false;
  }

  /** The calls left without a result (an interrupted turn), now closed; each is to be sent an error result. */
  closeAll(): string[] {
    const ids = [...this.#pending];
    for (const id of ids) this.#warnings.push(`tool call ${id} has no recorded result; sent as an error result`);
    this.#pending.clear();
    return ids;
  }
}

/** The result sent for a call that has none recorded. */
export const INTERRUPTED_TOOL_RESULT = 'Error: no result was recorded for this tool call (interrupted)';
