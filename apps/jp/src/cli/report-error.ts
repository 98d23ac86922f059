import { isJpError } from '@jp/core';
import { Output } from '../output/output.ts';
import type { GlobalOptions } from './global-options.ts';

/**
 * Prints an error as one line on stderr (a JSON object with `-F json`) and returns its exit code.
 * Stack traces only with `-v`; anything that is not a JpError is a bug or an unexpected runtime
 * failure and exits 1.
 */
export function reportError(error: unknown, options: Pick<GlobalOptions, 'format' | 'verbose' | 'color'>): number {
  const jp = isJpError(error) ? error : undefined;
  const exitCode = jp?.exitCode ?? 1;
  const code = jp?.code ?? 'runtime_error';
  const message = oneLine(error instanceof Error ? error.message : String(error));
  const output = new Output({ format: options.format, quiet: false, color: options.color });
  output.error({ code, exitCode, message });
  if (options.verbose && error instanceof Error && error.stack) {
    output.detail(error.stack);
    if (error.cause instanceof Error && error.cause.stack) output.detail(`caused by: ${error.cause.stack}`);
  }
  return exitCode;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, '; ').trim();
}
