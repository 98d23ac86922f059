import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { BRACKETED_PASTE_ON, PasteFilter, restorePasted } from './paste-filter.ts';

/** What the prompt gave: a line (a paste with line breaks is one), or the user leaving. */
export type ReadResult = { type: 'line'; text: string } | { type: 'exit' };

export interface PromptState {
  /** Up/Down history, newest first; the entered line is added. */
  history: string[];
  /** When Ctrl-C was last pressed on an empty line (ms), for "again within 2 s exits". */
  lastEmptyInterrupt: number;
}

const EXIT_WINDOW_MS = 2000;

/**
 * Reads one message at the terminal with line editing, history and Tab completion. The interface
 * is closed again before the turn runs; the terminal is left in raw mode for the chat's key holder
 * (turn-keys.ts), which turns Ctrl-C during an answer into the turn's SIGINT and steps aside when a
 * tool asks its own question. The chat leaves raw mode and bracketed paste when it ends.
 * Ctrl-D on an empty line leaves; Ctrl-C clears a line, and on an empty line twice within 2 s leaves.
 * Leaving ends the line, so the shell's prompt starts on a line of its own. `typeAhead`, what was
 * typed while the last turn ran (turn-keys.ts), is read first, as if typed now.
 */
export function readMessage(
  prompt: string,
  state: PromptState,
  completer: (line: string) => [string[], string],
  note: (message: string) => void,
  typeAhead = '',
): Promise<ReadResult> {
  const stdin = process.stdin;
  const filter = new PasteFilter();
  const input = new PassThrough();
  const forward = (chunk: Buffer | string) => input.write(filter.push(chunk.toString()));
  stdin.setRawMode?.(true);
  stdin.on('data', forward);
  stdin.resume();
  process.stdout.write(BRACKETED_PASTE_ON);
  const rl = createInterface({ input, output: process.stdout, terminal: true, history: [...state.history], historySize: 1000, removeHistoryDuplicates: true, completer, prompt, tabSize: 4 });
  return new Promise<ReadResult>((resolve) => {
    let settled = false;
    const finish = (result: ReadResult) => {
      if (settled) return;
      settled = true;
      if (result.type === 'line') state.history = [result.text, ...state.history.filter((entry) => entry !== result.text)].slice(0, 1000);
      rl.close();
      stdin.off('data', forward);
      stdin.pause();
      resolve(result);
    };
    rl.on('line', (line) => finish({ type: 'line', text: restorePasted(line) }));
    rl.on('close', () => {
      // Ctrl-D: readline leaves the cursor after the prompt; the shell's prompt would follow on that line.
      if (!settled) process.stdout.write('\n');
      finish({ type: 'exit' });
    });
    rl.on('SIGINT', () => {
      if (rl.line !== '') {
        // As in a shell: the line is dropped, the prompt comes back.
        rl.write(null, { ctrl: true, name: 'e' });
        rl.write(null, { ctrl: true, name: 'u' });
        return;
      }
      const now = Date.now();
      if (now - state.lastEmptyInterrupt <= EXIT_WINDOW_MS) {
        process.stdout.write('\n');
        finish({ type: 'exit' });
        return;
      }
      state.lastEmptyInterrupt = now;
      process.stdout.write('\n');
      note('press Ctrl-C again within 2 s, or Ctrl-D, to leave');
      rl.prompt();
    });
    rl.prompt();
    if (typeAhead !== '') forward(typeAhead);
  });
}
