import type { ResolveProgress } from '@jp/attachments';
import type { Output } from './output.ts';
import type { StatusLine } from './status-line.ts';
import { visibleText } from './terminal-text.ts';

/** Declarations whose time is spent waiting on something else: a command, a server, the network. */
const SLOW = /^(cmd:|https?:|mcp\+)/i;

export interface ProgressTiming {
  /** A slow item shows its elapsed time once it has run this long (a quick one never flashes). */
  slowAfterMs: number;
  intervalMs: number;
  now: () => number;
}

const DEFAULT_TIMING: ProgressTiming = { slowAfterMs: 250, intervalMs: 100, now: () => performance.now() };

/**
 * Resolution progress on the status line of a terminal: files read so far (redrawn at most every
 * 100 ms), and the elapsed time of slow items — a `cmd:` running, an http fetch, an MCP server
 * starting and answering — redrawn every 100 ms while one runs. `done()` erases it so the answer
 * starts on a clean line; its timer is unref'd.
 */
export class TerminalProgress implements ResolveProgress {
  private lastDraw = Number.NEGATIVE_INFINITY;
  private files: { done: number; label: string } | undefined;
  private readonly slow = new Map<number, { declaration: string; startedAt: number }>();
  private nextSlow = 0;
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly line: StatusLine,
    private readonly what: string,
    private readonly timing: ProgressTiming = DEFAULT_TIMING,
  ) {}

  update(done: number, label: string): void {
    this.files = { done, label };
    const now = this.timing.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.draw();
  }

  begin(declaration: string): () => void {
    if (!SLOW.test(declaration)) return () => undefined;
    const key = this.nextSlow++;
    this.slow.set(key, { declaration, startedAt: this.timing.now() });
    this.ticker ??= setInterval(() => this.draw(), this.timing.intervalMs).unref();
    return () => {
      this.slow.delete(key);
      if (this.slow.size === 0) this.stopTicker();
    };
  }

  done(): void {
    this.stopTicker();
    this.line.clear();
  }

  private stopTicker(): void {
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  /** `3 read  src/main.rs`, or once a slow item has run a while, `0 read  cmd:make test 1.3s (+1 more)`. */
  private draw(): void {
    const now = this.timing.now();
    const waiting = [...this.slow.values()].filter((item) => now - item.startedAt >= this.timing.slowAfterMs);
    const oldest = waiting[0];
    const count = `${this.what}: ${this.files?.done ?? 0} read`;
    // Labels and declarations name what is read (a file, a URL, a command): shown visibly, under jp's own erase codes.
    if (oldest !== undefined) {
      const more = waiting.length > 1 ? ` (+${waiting.length - 1} more)` : '';
      this.line.draw(`${count}  ${visibleText(oldest.declaration)} ${((now - oldest.startedAt) / 1000).toFixed(1)}s${more}`);
    } else if (this.files !== undefined) {
      this.line.draw(`${count}  ${visibleText(this.files.label)}`);
    }
  }
}

/** Progress for resolution when stderr is a terminal and output is not quiet or JSON; otherwise none. */
export function resolveProgress(output: Output): TerminalProgress | undefined {
  return output.drawsStatus ? new TerminalProgress(output.status, 'resolving attachments') : undefined;
}
