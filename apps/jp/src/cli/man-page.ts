import type { Command, Option } from 'commander';

/** Typography the help text uses, as groff names it (each renders in an ASCII locale too). */
const GLYPHS: Record<string, string> = { '\u2026': '.\\|.\\|.', '\u2014': '\\(em', '\u2013': '\\(en', '\u2018': '\\(oq', '\u2019': '\\(cq', '\u201c': '\\(lq', '\u201d': '\\(rq', '\u00d7': '\\(mu' };

/**
 * Text for roff: backslashes escaped, a leading `.` or `'` escaped, typography by groff's names,
 * and any other character beyond ASCII as `\[uXXXX]`.
 */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/^([.'])/gm, '\\&$1')
    .replace(/[^\x00-\x7f]/gu, (character) => GLYPHS[character] ?? `\\[u${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

const optionFlags = (option: Option) => roff(option.flags).replace(/-/g, '\\-');

function commands(command: Command, path: string[]): Array<{ path: string[]; command: Command }> {
  return command.commands
    .filter((child) => child.name() !== 'help' && !(child as unknown as { _hidden?: boolean })._hidden)
    .flatMap((child) => [{ path: [...path, child.name()], command: child }, ...commands(child, [...path, child.name()])]);
}

function usage(path: string[], command: Command): string {
  return `\\fBjp ${path.join(' ')}\\fR ${roff(command.usage()).replace(/-/g, '\\-')}`;
}

function options(list: readonly Option[]): string[] {
  return list.filter((option) => !option.hidden).flatMap((option) => ['.TP', `.B ${optionFlags(option)}`, roff(option.description)]);
}

const EXIT_STATUS: ReadonlyArray<[number, string]> = [
  [0, 'success'],
  [1, 'runtime error (including an empty query written in the editor)'],
  [2, 'usage error: a wrong option, value or id'],
  [3, 'provider or API error'],
  [4, 'an attachment could not be resolved'],
  [5, 'the conversation is locked by another jp'],
  [130, 'interrupted (Ctrl-C)'],
];

const ENVIRONMENT: ReadonlyArray<[string, string]> = [
  ['ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY', 'provider keys (another variable can be named in providers.<name>.api_key_env); with no model configured and exactly one set, that provider\'s default model is used'],
  ['JP_CONVERSATION', 'the conversation commands act on when --id is not given'],
  ['JP_WORKSPACE', 'the workspace directory to use, as -w does (-w wins)'],
  ['XDG_DATA_HOME', 'where the user workspace is, used outside any project: $XDG_DATA_HOME/jp (default ~/.local/share/jp)'],
  ['VISUAL, EDITOR', 'the editor a query with no text is written in, on a terminal (then editor.command, then vi)'],
  ['PAGER', 'the pager for long output'],
  ['NO_COLOR, FORCE_COLOR', 'turn colour off, or on for a pipe'],
  ['XDG_CONFIG_HOME', 'where the user config file is read: $XDG_CONFIG_HOME/jp/config.toml (default ~/.config/jp/config.toml)'],
  ['XDG_STATE_HOME', 'where jp chat keeps its input history: $XDG_STATE_HOME/jp/chat-history (default ~/.local/state/jp/)'],
];

const FILES: ReadonlyArray<[string, string]> = [
  ['.jp/config.toml', 'the workspace configuration (TOML), shared with the team'],
  ['.jp/conversations/', 'conversations: their events and metadata, append-only'],
  ['.jp/blobs/', 'content-addressed resource contents'],
  ['.jp/local/', 'this machine\'s state: drafts, caches, locks (not shared)'],
  ['~/.config/jp/config.toml', 'the user configuration'],
  ['~/.local/share/jp/', 'the user workspace: conversations started outside any project (made on first use)'],
];

/**
 * jp.1, the man page: made from the same command tree as docs/cli.md (every command with its
 * arguments and options, the global options), plus exit status, environment and files.
 */
export function renderManPage(program: Command, version: string): string {
  const lines: string[] = [
    '.\\" Generated from the jp command tree; do not edit.',
    `.TH JP 1 "" "jp ${version}" "User Commands"`,
    '.SH NAME',
    'jp \\- a command-line conversation engine for programmers',
    '.SH SYNOPSIS',
    '.B jp',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    roff(program.description()),
    'Everything attached to a conversation \\(em a file, a directory, a glob, a web page, command output, an MCP server\'s resource \\(em becomes a resource with a canonical URI, taken as a snapshot at the turn it was attached and stored with that turn.',
    '.SH GLOBAL OPTIONS',
    ...options(program.options),
    '.SH COMMANDS',
  ];
  for (const { path, command } of commands(program, [])) {
    lines.push('.TP', usage(path, command));
    const aliases = command.aliases();
    lines.push(roff(command.description()) + (aliases.length > 0 ? ` (also: ${aliases.map((alias) => `\\fB${alias}\\fR`).join(', ')})` : ''));
    const own = command.options.filter((option) => !option.hidden);
    if (own.length > 0) lines.push('.RS', ...options(own), '.RE');
  }
  lines.push('.SH EXIT STATUS');
  for (const [code, meaning] of EXIT_STATUS) lines.push('.TP', `.B ${code}`, meaning);
  lines.push('.SH ENVIRONMENT');
  for (const [name, meaning] of ENVIRONMENT) lines.push('.TP', `.B ${name}`, roff(meaning));
  lines.push('.SH FILES');
  for (const [name, meaning] of FILES) lines.push('.TP', `.I ${name}`, roff(meaning));
  lines.push('.SH SEE ALSO', 'The README shipped with the package; docs/cli.md (every command\'s help), docs/config.md (every configuration key with its type, default and meaning) and docs/rfd/ (the design records) in the source.', '');
  return lines.join('\n');
}
