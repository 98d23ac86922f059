import { ExitCode, JpError } from './jp-error.ts';

/** The model provider failed: missing or rejected key, HTTP error, broken stream (exit 3). */
export class ProviderError extends JpError {
  override name = 'ProviderError';
  readonly provider: string;
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  constructor(
    provider: string,
    message: string,
    options: { code?: string; statusCode?: number; isRetryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, { exitCode: ExitCode.provider, code: options.code ?? 'provider_error', cause: options.cause });
    this.provider = provider;
    this.statusCode = options.statusCode;
    this.isRetryable = options.isRetryable ?? false;
  }
}
