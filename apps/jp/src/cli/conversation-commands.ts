import type { Command } from 'commander';
import type { GlobalOptions } from './global-options.ts';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `jp conversation …` (alias `c`): each action imports its module only when it runs. */
export function addConversationCommands(program: Command, globals: (command: Command) => GlobalOptions): void {
  const conversation = program.command('conversation').alias('c').description('list, inspect, fork and switch conversations');
  conversation
    .command('ls')
    .description('list conversations, most recently active first')
    .option('--limit <n>', 'show at most N conversations (N at least 1)')
    .action(async (opts, cmd: Command) => {
      const { conversationLs } = await import('../commands/conversation-ls.ts');
      await conversationLs(globals(cmd), opts);
    });
  conversation
    .command('show')
    .description('print a conversation: its turns and the resources of each')
    .argument('[id]', 'conversation: an id, an id prefix or a title (default: the active one)')
    .option('--html', 'write the conversation as one self-contained HTML page (tokens and cache per turn) and print its path')
    .option('-o, --output <file>', 'with --html: where to write the page (default: .jp/local/html/<id>.html; - for stdout)')
    .option('--open', 'with --html: open the page in the system browser')
    .option('--turn <n>', 'only turn N (0-based); .. for every turn')
    .option('--last', 'only the last turn')
    .action(async (id: string | undefined, opts: { html?: boolean; output?: string; open?: boolean; turn?: string; last?: boolean }, cmd: Command) => {
      const { conversationShow } = await import('../commands/conversation.ts');
      await conversationShow(globals(cmd), id, opts);
    });
  conversation
    .command('grep')
    .description('search every conversation (branches too): queries, answers, tool calls and results, resource snapshots, titles; one hit a line, ID:TURN:SCOPE:TEXT')
    .argument('<pattern>', 'the text to look for (a JavaScript regular expression with --regex)')
    .option('--regex', 'read PATTERN as a regular expression (JavaScript syntax, u flag)')
    .option('-i, --ignore-case', 'ignore letter case')
    .option('--word', 'match whole words only (-w is --workspace)')
    .option('--scope <scopes>', 'where to look: user, assistant, reasoning, tool, resource, title or all, comma-separated (repeatable; default all but reasoning)', collect, [])
    .option('--id <id>', 'only this conversation or branch (repeatable)', collect, [])
    .option('-C, --context <n>', 'show N lines around each hit')
    .option('--limit <n>', 'stop after N hits')
    .addHelpText('after', '\nTURN is what `jp conversation show ID --turn TURN` takes (`..` for a title). Exit status 0 when something matched, 1 when nothing did, 2 for a bad pattern.')
    .action(async (pattern: string, opts, cmd: Command) => {
      const { conversationGrep } = await import('../commands/conversation-grep.ts');
      await conversationGrep(globals(cmd), pattern, opts);
    });
  conversation
    .command('use')
    .description('make a conversation the active one')
    .argument('<id>', 'conversation: an id, an id prefix, or a title as jp c ls prints it')
    .action(async (id: string, _opts, cmd: Command) => {
      const { conversationUse } = await import('../commands/conversation.ts');
      await conversationUse(globals(cmd), id);
    });
  conversation
    .command('fork')
    .description('copy a conversation (its turns, or none) into a new one and print the new id')
    .argument('[id]', 'conversation to fork: an id, an id prefix or a title (default: the active one)')
    .option('--until-turn <n>', 'copy turns 0 through N only')
    .option('--no-turns', 'copy no turns: the fork starts empty with the same configuration')
    .option('--title <title>', 'title of the fork')
    .option('--activate', 'make the fork the active conversation')
    .action(async (id: string | undefined, opts, cmd: Command) => {
      const { conversationFork } = await import('../commands/conversation.ts');
      await conversationFork(globals(cmd), id, opts);
    });
  conversation
    .command('compact')
    .description('send older turns to the model in less space: reasoning, tool results and resource contents stubbed, or summarised; the turns on disk stay')
    .argument('[id]', 'conversation (default: the active one)')
    .option('--keep-first <n>', 'leave the first N turns as they are (conversation.compaction.keep_first)')
    .option('--keep-last <n>', 'leave the last N turns as they are (conversation.compaction.keep_last, default 4)')
    .option('--reasoning', 'strip reasoning')
    .option('--tools [mode]', 'tool calls: strip-results (default), strip-arguments, strip or omit')
    .option('--resources', 'resource contents become stubs that keep URI, MIME type, size and sha256')
    .option('--summarize', 'replace the turns by a summary the model writes (one model call)')
    .option('--dry-run', 'print what would change, with bytes and estimated tokens before and after; write nothing')
    .option('--reset', 'cancel the earlier compactions: every turn is sent in full again')
    .option('--force', 'write the compaction even when it would not make the request smaller (refused otherwise, exit 1)')
    .addHelpText('after', '\nWithout --reasoning, --tools, --resources or --summarize, the rules of [conversation.compaction] apply.')
    .action(async (id: string | undefined, opts, cmd: Command) => {
      const { conversationCompact } = await import('../commands/conversation-compact.ts');
      await conversationCompact(globals(cmd), id, opts);
    });
  conversation
    .command('rm')
    .description('delete a conversation')
    .argument('<id>', 'conversation: an id, an id prefix, or a title as jp c ls prints it')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (id: string, opts, cmd: Command) => {
      const { conversationRm } = await import('../commands/conversation.ts');
      await conversationRm(globals(cmd), id, opts);
    });
  conversation
    .command('path')
    .description("print the directory holding a conversation's files")
    .argument('[id]', 'conversation (default: the active one)')
    .action(async (id: string | undefined, _opts, cmd: Command) => {
      const { conversationPath } = await import('../commands/conversation.ts');
      await conversationPath(globals(cmd), id);
    });
}
