import { ExitCode, JpError } from './jp-error.ts';

/** The command line or a configuration value was wrong (exit 2). */
export class UsageError extends JpError {
  override name = 'UsageError';
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { exitCode: ExitCode.usage, code: options.code ?? 'usage_error', cause: options.cause });
  }
}
