import { setKeyHolder, type KeyHolder } from '../output/terminal-handover.ts';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from './paste-filter.ts';

/** The stdin a holder reads: process.stdin, or a stand-in in tests. */
export interface KeyStream {
  setRawMode?(raw: boolean): unknown;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  off(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

type KeySignal = 'SIGINT' | 'SIGQUIT' | 'SIGTSTP';

/** What the keys a terminal turns into signals do when jp reads them itself. */
export interface KeySignals {
  /** Ctrl-C, Ctrl-\, Ctrl-Z. */
  raise(signal: KeySignal): void;
  /** Whether jp handles the signal itself (a turn handles SIGINT); if not, it ends or stops jp. */
  handled(signal: KeySignal): boolean;
}

const SIGNAL_KEYS: Record<string, KeySignal> = { '\u0003': 'SIGINT', '\u001c': 'SIGQUIT', '\u001a': 'SIGTSTP' };

const toSelf: KeySignals = { raise: (signal) => process.kill(process.pid, signal), handled: (signal) => process.listenerCount(signal) > 0 };

/**
 * The keyboard while a chat turn runs. With the terminal left in cooked mode, what a person types
 * during an answer is echoed by the terminal wherever the cursor is — onto the spinner's line, into
 * the answer. So the chat holds the keys itself between prompts: raw mode (no echo), every key kept
 * for the next prompt (type-ahead, as a shell keeps it), and the keys a terminal would turn into
 * signals raised as those signals, so Ctrl-C still stops the turn. Bracketed paste stays on for the
 * whole chat, so a paste made meanwhile is still one message. A question or the editor takes the
 * terminal through `withTerminal` (terminal-handover.ts) and gets it as a program expects it: cooked
 * mode, no bracketed paste.
 */
export class TurnKeys implements KeyHolder {
  private typed = '';
  private holding = false;
  private paused = false;
  private readonly onData = (chunk: Buffer | string) => this.take(chunk.toString());
  private readonly onContinue = () => {
    if (!this.holding || this.paused) return;
    this.write(BRACKETED_PASTE_ON);
    this.stdin.setRawMode?.(true);
  };

  constructor(
    private readonly stdin: KeyStream = process.stdin,
    private readonly write: (text: string) => void = (text) => process.stdout.write(text),
    private readonly signals: KeySignals = toSelf,
  ) {}

  /** Takes the keys until `release`. */
  hold(): void {
    if (this.holding) return;
    this.holding = true;
    this.paused = false;
    process.on('SIGCONT', this.onContinue);
    setKeyHolder(this);
    this.listen();
  }

  /**
   * Gives the keys back to the next prompt; returns what was typed meanwhile. The terminal stays in
   * raw mode: between a turn and the prompt there is no moment for it to echo a key.
   */
  release(): string {
    if (!this.holding) return '';
    this.unlisten(true);
    this.holding = false;
    setKeyHolder(undefined);
    process.off('SIGCONT', this.onContinue);
    const typed = this.typed;
    this.typed = '';
    return typed;
  }

  pause(): void {
    if (!this.holding || this.paused) return;
    this.paused = true;
    this.unlisten();
    this.write(BRACKETED_PASTE_OFF);
  }

  resume(): void {
    if (!this.holding || !this.paused) return;
    this.paused = false;
    this.write(BRACKETED_PASTE_ON);
    this.listen();
  }

  private listen(): void {
    this.stdin.setRawMode?.(true);
    this.stdin.on('data', this.onData);
    this.stdin.resume();
  }

  private unlisten(keepRaw = false): void {
    this.stdin.off('data', this.onData);
    if (!keepRaw) this.stdin.setRawMode?.(false);
    this.stdin.pause();
  }

  private take(text: string): void {
    for (const key of text) {
      const signal = SIGNAL_KEYS[key];
      if (signal === undefined) {
        // Ctrl-D would leave the chat at the next prompt: a key pressed during an answer is not meant so.
        if (key !== '\u0004') this.typed += key;
        continue;
      }
      // A signal that ends or stops jp gives the terminal back first, as the shell expects it
      // (cooked, no bracketed paste); after a stop, SIGCONT takes it again (as readline does).
      if (!this.signals.handled(signal)) {
        this.stdin.setRawMode?.(false);
        this.write(BRACKETED_PASTE_OFF);
      }
      this.signals.raise(signal);
    }
  }
}
