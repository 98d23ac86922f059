import { formatWithOptions } from 'node:util';
import { clearStatusLines } from '../output/status-line.ts';
import { visibleText } from '../output/terminal-text.ts';
import type { GlobalOptions } from './global-options.ts';

/** How what others print is told: only with `-v`, as a warning in the command's format. */
let mode: Pick<GlobalOptions, 'verbose' | 'format'> = { verbose: false, format: 'text' };

const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;

/**
 * Keeps what Node and libraries print on their own off stdout and stderr (RFD 010, "Warnings"):
 * Node's warnings (`MaxListenersExceededWarning`, `TimeoutOverflowWarning`, deprecations, and a
 * library's `process.emitWarning`) lose Node's default printer, and `console` calls — which jp
 * never makes — go the same way. They are told, one line each, only with `-v`; with `-F json`
 * as `{"warning": …}` lines, and shown visibly (terminal-text.ts): a library may quote what a
 * server sent (the Anthropic SDK logs an event that is not JSON as it received it). Their causes
 * are fixed where they are known; this is the guard.
 */
export function guardStrayOutput(): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => tell(`${warning.name}: ${warning.message}`));
  for (const method of CONSOLE_METHODS) console[method] = (...args: unknown[]) => tell(formatWithOptions({ colors: false }, ...args));
}

/** Called once the command's options are known. */
export function setStrayOutputMode(options: Pick<GlobalOptions, 'verbose' | 'format'>): void {
  mode = { verbose: options.verbose, format: options.format };
}

function tell(text: string): void {
  if (!mode.verbose) return;
  const line = text.replace(/\s*\n\s*/g, '; ').trim();
  // A spinner or progress line may be drawn: erased first, so the warning starts its own line.
  clearStatusLines();
  if (mode.format === 'json') process.stderr.write(`${JSON.stringify({ warning: line })}\n`);
  else process.stderr.write(`jp: warning (not from jp): ${visibleText(line)}\n`);
}
