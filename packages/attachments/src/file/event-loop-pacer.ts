import { setImmediate as nextTurn } from 'node:timers/promises';
import { ExitCode, JpError } from '@jp/core';

/**
 * For loops of synchronous file-system calls: `pace()` returns at once until `sliceMs` have
 * passed since the last yield, then lets the event loop run (timers, other handlers, signals) and
 * throws if resolution was aborted meanwhile. So a walk of 10 000 files runs at the speed of
 * synchronous calls and still never holds the loop for more than a slice.
 */
export function createEventLoopPacer(signal?: AbortSignal, sliceMs = 15): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < sliceMs && signal?.aborted !== true) return;
    await nextTurn();
    if (signal?.aborted === true) throw new JpError('interrupted while reading attachments', { exitCode: ExitCode.interrupted, code: 'interrupted' });
    last = performance.now();
  };
}
