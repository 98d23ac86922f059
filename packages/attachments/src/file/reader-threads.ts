import { Worker } from 'node:worker_threads';
import { READER_WORKER_SOURCE } from './file-reader-worker.ts';

/*
 * A reader thread started before its work is known. Booting one takes tens of milliseconds of
 * CPU (a new V8 isolate, Node's internals, fs and crypto); started while the command's modules
 * load — a time when the second core has nothing to do — it is ready by the time a walk finds
 * the first files, and reads them while the walk goes on (RFD 002). This module is small on
 * purpose: the binary's warm start (apps/jp/src/cli/warm-start.ts) loads it before the command's
 * modules, and only when it starts a reader.
 */

let warm: { worker: Worker; ended: boolean } | undefined;

/**
 * Starts one reader thread ahead of any work, unless one is waiting already. It keeps nothing
 * alive: a process that never takes it ends as if it had not been started. A reader that cannot
 * be started is simply not there.
 */
export function warmReaderThread(source: string = READER_WORKER_SOURCE): void {
  if (warm !== undefined && !warm.ended) return;
  let worker: Worker;
  try {
    worker = new Worker(source, { eval: true });
  } catch {
    return;
  }
  const started = { worker, ended: false };
  worker.once('exit', () => (started.ended = true));
  // An error before any work is only a reader less: the work goes to a new one or to this thread.
  worker.on('error', () => undefined);
  worker.unref();
  warm = started;
}

/** The waiting reader, if one was started and is still alive; nobody else gets it. */
export function takeReaderThread(): Worker | undefined {
  const taken = warm;
  warm = undefined;
  if (taken === undefined || taken.ended) return undefined;
  // Its work is what the process now waits for.
  taken.worker.ref();
  return taken.worker;
}
