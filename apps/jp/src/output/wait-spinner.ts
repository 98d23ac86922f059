import type { Output } from './output.ts';
import type { StatusLine } from './status-line.ts';
import { visibleText } from './terminal-text.ts';

/** Shown while nothing comes: started when a request is sent, stopped at its first event. */
export interface WaitIndicator {
  start(): void;
  stop(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface SpinnerTiming {
  /** Nothing is drawn before this: an answer that comes at once never makes the line flash. */
  delayMs: number;
  intervalMs: number;
  now: () => number;
}

const DEFAULT_TIMING: SpinnerTiming = { delayMs: 200, intervalMs: 100, now: () => performance.now() };

/**
 * A spinner with the seconds waited, `⠋ waiting for anthropic/claude… 1.2s`, on the status line.
 * Its timers are unref'd, so it never keeps the process alive, and it erases itself on `stop` and
 * when the process exits (a second Ctrl-C exits at once), so the line never outlives the wait.
 */
export class WaitSpinner implements WaitIndicator {
  private startedAt = 0;
  private delay: NodeJS.Timeout | undefined;
  private interval: NodeJS.Timeout | undefined;
  private frame = 0;
  private drawn = false;
  private running = false;
  private readonly onExit = () => this.stop();

  constructor(
    private readonly line: StatusLine,
    private readonly label: string,
    private readonly timing: SpinnerTiming = DEFAULT_TIMING,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.startedAt = this.timing.now();
    this.frame = 0;
    this.delay = setTimeout(() => {
      this.draw();
      this.interval = setInterval(() => this.draw(), this.timing.intervalMs).unref();
    }, this.timing.delayMs).unref();
    process.once('exit', this.onExit);
  }

  stop(): void {
    if (!this.running) return;
    this.running = false;
    clearTimeout(this.delay);
    clearInterval(this.interval);
    process.off('exit', this.onExit);
    if (this.drawn) this.line.clear();
    this.drawn = false;
  }

  private draw(): void {
    const seconds = ((this.timing.now() - this.startedAt) / 1000).toFixed(1);
    this.line.draw(`${FRAMES[this.frame++ % FRAMES.length]} ${this.label}… ${seconds}s`);
    this.drawn = true;
  }
}

const NONE: WaitIndicator = { start: () => undefined, stop: () => undefined };

/**
 * The spinner shown while `model` is asked: only when stderr is a terminal and output is neither
 * quiet nor JSON; otherwise one that shows nothing.
 */
export function waitSpinner(output: Output, model: string, timing?: SpinnerTiming): WaitIndicator {
  if (!output.drawsStatus) return NONE;
  return new WaitSpinner(output.status, `waiting for ${visibleText(model)}`, timing);
}
