import { readdirSync } from 'node:fs';
import path from 'node:path';
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
 * Returns the candidates and the word they replace.
 */
export function completeChatLine(line: string, cwd: string, list: ListDir = listDir): [string[], string] {
  if (/^\/[a-z]*$/.test(line)) {
    return [CHAT_COMMANDS.map(([name]) => name).filter((name) => name.startsWith(line)), line];
  }
  const attach = /^\/attach\s+(?:\S+\s+)*(\S*)$/.exec(line);
  if (attach === null) return [[], line];
  const word = attach[1]!;
  const slash = word.lastIndexOf('/');
  const dirPart = slash === -1 ? '' : word.slice(0, slash + 1);
  const base = slash === -1 ? word : word.slice(slash + 1);
  const dir = path.resolve(cwd, dirPart === '' ? '.' : dirPart);
  const hits = list(dir)
    .filter((entry) => entry.name.startsWith(base) && (base.startsWith('.') || !entry.name.startsWith('.')))
    .map((entry) => `${dirPart}${entry.name}${entry.directory ? '/' : ''}`)
    .sort();
  return [hits, word];
}
