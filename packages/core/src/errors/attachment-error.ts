import { ExitCode, JpError } from './jp-error.ts';

/** An attachment could not be resolved (exit 4). `attachment` is the input or URI that failed. */
export class AttachmentError extends JpError {
  override name = 'AttachmentError';
  readonly attachment: string;
  constructor(attachment: string, message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { exitCode: ExitCode.attachment, code: options.code ?? 'attachment_error', cause: options.cause });
    this.attachment = attachment;
  }
}
