import { ExitCode, JpError } from './jp-error.ts';

/** Another process holds the conversation's lock (exit 5). */
export class LockedError extends JpError {
  override name = 'LockedError';
  readonly holderPid: number | undefined;
  constructor(message: string, holderPid: number | undefined) {
    super(message, { exitCode: ExitCode.locked, code: 'conversation_locked' });
    this.holderPid = holderPid;
  }
}
