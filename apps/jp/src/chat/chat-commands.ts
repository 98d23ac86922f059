/** The slash commands of `jp chat`, with what `/help` says of each. */
export const CHAT_COMMANDS = [
  ['/attach', 'URL…', 'declare attachments (as jp attachment add); they go with your next message'],
  ['/detach', 'URL|INDEX', 'stop declaring one (as jp attachment rm)'],
  ['/ls', '', 'list the attachments (as jp attachment ls)'],
  ['/model', 'ID', 'use another model from the next message on'],
  ['/fork', '', 'fork this conversation and go on in the fork'],
  ['/new', '', 'start a new conversation with the next message'],
  ['/compact', '[--summarize] [--force]', 'send older turns in less space from now on (as jp conversation compact; never a compaction that would not shrink them, unless --force)'],
  ['/explain', '[TEXT]', 'print the request the next message (TEXT) would send; send nothing'],
  ['/edit', '', 'write the next message in $VISUAL/$EDITOR'],
  ['/help', '', 'this list'],
  ['/quit', '', 'leave (so do Ctrl-D, and Ctrl-C twice on an empty line)'],
] as const;

export type ChatCommandName = (typeof CHAT_COMMANDS)[number][0];

/** A line typed at the prompt: a message, a command with its words, or a command jp does not know. */
export type ChatInput =
  | { type: 'message'; text: string }
  | { type: 'command'; name: ChatCommandName; args: string[]; rest: string }
  | { type: 'unknown'; name: string };

const NAMES = new Set<string>(CHAT_COMMANDS.map(([name]) => name));

/**
 * Reads a line. A line starting with `/` and a letter is a command (`/tmp/x` is a message: a path
 * is not a command); `//text` sends `/text` as a message.
 */
export function parseChatInput(line: string): ChatInput {
  if (line.startsWith('//')) return { type: 'message', text: line.slice(1) };
  const match = /^\/([a-z]+)(?=\s|$)\s*([\s\S]*)$/.exec(line);
  if (match === null) return { type: 'message', text: line };
  const name = `/${match[1]}`;
  if (!NAMES.has(name)) return { type: 'unknown', name };
  const rest = match[2]!.trim();
  return { type: 'command', name: name as ChatCommandName, args: rest === '' ? [] : rest.split(/\s+/), rest };
}

/** `/help`'s text. */
export function chatHelp(): string {
  const width = Math.max(...CHAT_COMMANDS.map(([name, args]) => `${name} ${args}`.length));
  return CHAT_COMMANDS.map(([name, args, what]) => `  ${`${name} ${args}`.padEnd(width)}  ${what}`).join('\n');
}
