import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fromVisibleName, visibleName } from '../output/terminal-text.ts';
import { CHAT_COMMANDS } from './chat-commands.ts';

type ListDir = (dir: string) => Array<{ name: string; directory: boolean }>;

const listDir: ListDir = (dir) => {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((entry) => ({ name: entry.name, directory: entry.isDirectory() }));
  } catch {
    return [];
  }
};

/**
 * readline's completer for the prompt: command names after `/`, and paths after `/attach `
 * (relative to `cwd`; directories end in `/`; hidden entries only when the word starts with `.`).
 * Returns the candidates and the word they replace. A finished word (a command, a file) ends in a
 * space, as a shell completes it, so the next word can be typed at once.
 *
 * readline prints candidates and inserts the chosen one exactly as given, so a file name is given
 * in its visible form (terminal-text.ts): a name holding escape sequences shows them as `\x1b…`
 * and never reaches the terminal raw. `/attach` reads that form back (`typedPath`).
 */
export function completeChatLine(line: string, cwd: string, list: ListDir = listDir): [string[], string] {
  if (/^\/[a-z]*$/.test(line)) {
    return [CHAT_COMMANDS.map(([name]) => name).filter((name) => name.startsWith(line)).map((name) => `${name} `), line];
  }
  const attach = /^\/attach\s+(?:\S+\s+)*(\S*)$/.exec(line);
  if (attach === null) return [[], line];
  const word = attach[1]!;
  const slash = word.lastIndexOf('/');
  const dirPart = slash === -1 ? '' : word.slice(0, slash + 1);
  const base = slash === -1 ? word : word.slice(slash + 1);
  const dir = path.resolve(cwd, dirPart === '' ? '.' : dirPart);
  // A directory completed earlier is typed in its visible form: listed by its real name.
  const entries = list(dir);
  const listed = entries.length > 0 || fromVisibleName(dir) === dir ? entries : list(fromVisibleName(dir));
  const hits = listed
    .map((entry) => ({ ...entry, shown: visibleName(entry.name) }))
    .filter((entry) => entry.shown.startsWith(base) && (base.startsWith('.') || !entry.name.startsWith('.')))
    .map((entry) => `${dirPart}${entry.shown}${entry.directory ? '/' : ' '}`)
    .sort();
  return [hits, word];
}
