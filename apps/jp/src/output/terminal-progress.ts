import type { ResolveProgress } from '@jp/attachments';
import { visibleText } from './terminal-text.ts';

/**
 * A one-line progress indicator on stderr, redrawn at most every 100 ms, for terminals only.
 * `done()` erases it so the answer starts on a clean line.
 */
export class TerminalProgress implements ResolveProgress {
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly what: string,
  ) {}

  update(done: number, label: string): void {
    const now = Date.now();
    if (now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const width = Math.max(20, (this.stream.columns ?? 80) - 1);
    // The label names what is read (a file, a URL): shown visibly, under jp's own erase codes.
    const line = `${this.what}: ${done} read  ${visibleText(label)}`;
    this.stream.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    this.drawn = true;
  }

  done(): void {
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }
}

/** Progress for resolution when stderr is a terminal and output is not quiet or JSON; otherwise none. */
export function resolveProgress(options: { quiet: boolean; json: boolean }): TerminalProgress | undefined {
  if (options.quiet || options.json || !process.stderr.isTTY) return undefined;
  return new TerminalProgress(process.stderr, 'resolving attachments');
}
