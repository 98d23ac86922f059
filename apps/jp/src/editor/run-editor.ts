import { spawn } from 'node:child_process';
import { JpError } from '@jp/core';
import { withTerminal } from '../output/terminal-handover.ts';
import type { EditorChoice } from './editor-command.ts';

/**
 * Runs the editor on `file` with the terminal handed over, and waits. While it runs jp ignores
 * Ctrl-C and Ctrl-\ (as git does): the keys are the editor's, and the draft survives whatever the
 * editor does with them. The keys are taken from whoever holds them meanwhile (terminal-handover.ts).
 */
export async function runEditor(argv: readonly string[], file: string, choice: EditorChoice, keptHint: string): Promise<void> {
  const ignore = (): void => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGQUIT', ignore);
  try {
    const started = () =>
      new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
        const child = spawn(argv[0]!, [...argv.slice(1), file], { stdio: 'inherit' });
        child.once('error', reject);
        child.once('exit', (code, signal) => resolve({ code, signal }));
      });
    const status = await withTerminal(started).catch((error: NodeJS.ErrnoException) => {
      const what = error.code === 'ENOENT' ? 'was not found' : error.code === 'EACCES' ? 'cannot be run' : `could not start (${error.message})`;
      throw new JpError(`the editor ${JSON.stringify(argv[0])} (from ${choice.source}) ${what}; set $VISUAL or $EDITOR to an installed editor`, { code: 'editor_missing', cause: error });
    });
    if (status.code !== 0) {
      const how = status.signal !== null ? `was stopped by ${status.signal}` : `exited with status ${status.code}`;
      throw new JpError(`the editor ${how}; nothing was sent, ${keptHint}`, { code: 'editor_failed' });
    }
  } finally {
    process.off('SIGINT', ignore);
    process.off('SIGQUIT', ignore);
  }
}
