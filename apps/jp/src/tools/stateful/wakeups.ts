/**
 * What a stateful handle's waits wake up for (RFD 019): every change of the handle — output, a
 * response, the exit — is `notify`d; a `fetch` or `apply` waits for the next one, or for a
 * condition, with a limit and an abort signal. One mechanism for both kinds of handle.
 */
export class Wakeups {
  /** How many changes there have been: a waiter compares it with the count it started from. */
  count = 0;
  readonly #waiters = new Set<() => void>();

  notify(): void {
    this.count += 1;
    for (const waiter of [...this.#waiters]) waiter();
  }

  /** True at the next change, false after `ms` or when `signal` aborts. */
  next(ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (woke: boolean) => {
        clearTimeout(timer);
        this.#waiters.delete(onWake);
        signal?.removeEventListener('abort', onAbort);
        resolve(woke);
      };
      const onWake = () => finish(true);
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), ms);
      this.#waiters.add(onWake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Resolves once `done()` holds after a change, after `ms`, or when `signal` aborts — whichever comes first. */
  until(done: () => boolean, ms: number, signal?: AbortSignal): Promise<void> {
    if (done() || ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const stop = () => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        signal?.removeEventListener('abort', stop);
        resolve();
      };
      const check = () => {
        if (done()) stop();
      };
      const timer = setTimeout(stop, ms);
      this.#waiters.add(check);
      signal?.addEventListener('abort', stop, { once: true });
    });
  }
}
