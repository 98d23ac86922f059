import { redactUrlSecrets } from '../redact-url-secrets.ts';

/** Exit codes of the CLI contract (ARCHITECTURE §8). */
export const ExitCode = {
  ok: 0,
  runtime: 1,
  usage: 2,
  provider: 3,
  attachment: 4,
  locked: 5,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The base of every error a user can meet. `message` is one line saying what was wrong and what
 * to do; `code` is a stable machine-readable name (it appears in `-F json` errors).
 */
export class JpError extends Error {
  override name = 'JpError';
  readonly exitCode: ExitCode;
  readonly code: string;

  constructor(message: string, options: { exitCode?: ExitCode; code?: string; cause?: unknown } = {}) {
    // A URL's password or `?key=` never reaches stderr or an error event (RFD 013).
    super(redactUrlSecrets(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.exitCode = options.exitCode ?? ExitCode.runtime;
    this.code = options.code ?? 'runtime_error';
  }
}

export function isJpError(error: unknown): error is JpError {
  return error instanceof JpError;
}
