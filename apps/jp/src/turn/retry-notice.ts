import type { Output } from '../output/output.ts';
import { visibleText } from '../output/terminal-text.ts';

/** One retry of a provider call, as a notice tells it. */
export interface Retry {
  /** 1-based. */
  attempt: number;
  retries: number;
  delayMs: number;
  /** Why: the provider's error message. */
  message: string;
}

/** Tells of retries while they happen; `clear` once the answer comes or the call fails for good. */
export interface RetryNotice {
  show(retry: Retry): void;
  clear(): void;
}

/**
 * How a retry is told (RFD 010, "Retries"): one line redrawn in place on a terminal; with
 * `-F json` a `{"type":"retry",…}` line among the events on stdout; nothing with `--quiet`, and
 * nothing on a stderr that is not a terminal unless `-v` (a line per retry) — the error that ends
 * the query says how many retries it made, so a script's stderr keeps to one line.
 */
export function retryNotice(output: Output, options: { verbose: boolean }): RetryNotice {
  // The provider's message is not jp's: shown visibly, as every line jp writes on stderr.
  const text = (retry: Retry) => `jp: ${visibleText(retry.message)}; retrying in ${(retry.delayMs / 1000).toFixed(1)} s (${retry.attempt} of ${retry.retries})`;
  if (output.json) {
    return { show: (retry) => output.data({ type: 'retry', ...retry }), clear: () => undefined };
  }
  if (output.options.quiet) return { show: () => undefined, clear: () => undefined };
  if (output.drawsStatus) {
    // On stderr's one status line, which progress and the spinner also draw on (status-line.ts).
    let drawn = false;
    return {
      show(retry) {
        output.status.draw(text(retry));
        drawn = true;
      },
      clear() {
        if (drawn) output.status.clear();
        drawn = false;
      },
    };
  }
  if (options.verbose) return { show: (retry) => output.detail(text(retry)), clear: () => undefined };
  return { show: () => undefined, clear: () => undefined };
}
