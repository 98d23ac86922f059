import { isJpError } from '@jp/core';
import type { GlobalOptions } from './global-options.ts';

/**
 * Prints an error as one line on stderr (a JSON object with `-F json`) and returns its exit code.
 * Stack traces only with `-v`; anything that is not a JpError is a bug or an unexpected runtime
 * failure and exits 1.
 */
export function reportError(error: unknown, options: Pick<GlobalOptions, 'format' | 'verbose'>): number {
  const jp = isJpError(error) ? error : undefined;
  const exitCode = jp?.exitCode ?? 1;
  const code = jp?.code ?? 'runtime_error';
  const message = oneLine(error instanceof Error ? error.message : String(error));
  if (options.format === 'json') {
    process.stderr.write(`${JSON.stringify({ error: { code, exitCode, message } })}\n`);
  } else {
    process.stderr.write(`jp: ${message}\n`);
  }
  if (options.verbose && error instanceof Error && error.stack) {
    process.stderr.write(`${error.stack}\n`);
    if (error.cause instanceof Error && error.cause.stack) process.stderr.write(`caused by: ${error.cause.stack}\n`);
  }
  return exitCode;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, '; ').trim();
}
