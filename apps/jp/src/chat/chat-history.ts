import { appendFileSync, chmodSync, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** At most this many messages are kept for Up/Down. */
export const HISTORY_SIZE = 1000;

/**
 * Where `jp chat` keeps what the user typed: one person's, outside any workspace, under the XDG
 * state directory (`$XDG_STATE_HOME/jp/chat-history`, default `~/.local/state/jp/`), readable by
 * its owner only — it can hold anything the user pasted.
 */
export function chatHistoryFile(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(env.HOME || homedir(), '.local', 'state');
  return path.join(state, 'jp', 'chat-history');
}

/** The messages kept, newest first (readline's order). One JSON string a line: a pasted message keeps its line breaks. */
export function loadChatHistory(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    try {
      const entry: unknown = JSON.parse(line);
      if (typeof entry === 'string' && entry !== '') entries.push(entry);
    } catch {
      // A torn or foreign line is skipped, not fatal: history is a convenience.
    }
  }
  return entries.slice(-HISTORY_SIZE).reverse();
}

/** Adds a message; the file is created 0600 and kept so. A failure costs the entry, never the chat. */
export function appendChatHistory(file: string, message: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
    appendFileSync(file, `${JSON.stringify(message)}\n`);
  } catch {
    // History is a convenience: a read-only home must not stop the conversation.
  }
}
