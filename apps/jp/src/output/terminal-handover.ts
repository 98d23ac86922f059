/**
 * Who holds the keyboard while no prompt shows: `jp chat` keeps the keys a person types during a
 * turn (chat/turn-keys.ts) so they are neither echoed over the answer nor lost. Whoever asks the
 * person something in between — a confirmation, a question, the editor — takes the terminal
 * through `withTerminal`, and the holder steps aside until they are done.
 */
export interface KeyHolder {
  /** Lets go of the terminal: cooked mode, nothing read. */
  pause(): void;
  /** Takes it back. */
  resume(): void;
}

let holder: KeyHolder | undefined;

/** Sets (or, with `undefined`, clears) the holder. */
export function setKeyHolder(next: KeyHolder | undefined): void {
  holder = next;
}

/** Runs `use` with the terminal to itself: the holder, if any, steps aside until it settles. */
export async function withTerminal<T>(use: () => Promise<T>): Promise<T> {
  const current = holder;
  current?.pause();
  try {
    return await use();
  } finally {
    current?.resume();
  }
}
