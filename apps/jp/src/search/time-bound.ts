import vm from 'node:vm';

/** A search that ran past its time limit: a pattern that backtracks without end, or a very large conversation. */
export class SearchTimeout extends Error {
  override readonly name = 'SearchTimeout';

  constructor(readonly limitMs: number) {
    super(`the search of one conversation ran for more than ${limitMs / 1000} s and was stopped; a pattern with nested repetition such as (a+)+ can take exponential time: simplify it, or search literally`);
  }
}

/**
 * Runs each call with a time limit: V8 stops the code (a regular expression in the middle of its
 * backtracking included) when the limit passes, and the call throws `SearchTimeout`. This is what
 * makes a pattern from an MCP client safe to run (RFD 033): JavaScript's engine backtracks, and
 * `(a+)+$` on a long line of `a` followed by anything else would otherwise never end. Uses
 * `node:vm`'s `timeout`, a watchdog thread that interrupts the isolate; `finally` blocks inside the
 * stopped call do not run, so the caller releases what it holds outside the call.
 */
export function timeBound(limitMs: number): <T>(run: () => T) => T {
  const slot: { run: (() => unknown) | undefined } = { run: undefined };
  const context = vm.createContext(slot);
  const script = new vm.Script('run()');
  return <T>(run: () => T): T => {
    slot.run = run;
    try {
      return script.runInContext(context, { timeout: limitMs }) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException | undefined)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new SearchTimeout(limitMs);
      throw error;
    } finally {
      slot.run = undefined;
    }
  };
}
