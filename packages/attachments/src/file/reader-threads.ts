import { Worker } from 'node:worker_threads';

/**
 * Reader threads started before their work is known: a directory walk that has found enough
 * files to be read in parallel starts them, so they boot (tens of milliseconds each) while the
 * walk goes on, and `readFileResources` hands each its share when the walk is done. The work
 * arrives as the worker's first message (see file-reader-worker.ts). Whatever is not taken is
 * terminated by `close`.
 */
export class ReaderThreads {
  #idle: Worker[] = [];
  /** Readers that ended before being given work (they failed to start): never handed out. */
  #ended = new WeakSet<Worker>();

  constructor(private readonly source: string) {}

  /** Starts readers until `count` are waiting. A reader that cannot be started is simply not there. */
  start(count: number): void {
    while (this.#idle.length < count) {
      let worker: Worker;
      try {
        worker = new Worker(this.source, { eval: true });
      } catch {
        return;
      }
      worker.once('exit', () => this.#ended.add(worker));
      // An error before any work is only a reader less: the share goes to a new one or to this thread.
      worker.on('error', () => undefined);
      this.#idle.push(worker);
    }
  }

  /** A waiting reader that is still alive, if any. */
  take(): Worker | undefined {
    for (let worker = this.#idle.shift(); worker !== undefined; worker = this.#idle.shift()) {
      if (!this.#ended.has(worker)) return worker;
    }
    return undefined;
  }

  /** Terminates the readers nobody took. */
  close(): void {
    for (const worker of this.#idle) {
      worker.unref();
      void worker.terminate();
    }
    this.#idle = [];
  }
}
