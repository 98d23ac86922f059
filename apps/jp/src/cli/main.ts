import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '@jp/core';
import { userCacheDir } from '../config/config-paths.ts';
import { useValidatedConfigCache } from '../config/validated-config-dir.ts';
import type { WrittenQuery } from '../query/editor-first.ts';
import { version } from '../version.ts';
import { readGlobalOptions, type GlobalOptions } from './global-options.ts';
import { addConversationCommands } from './conversation-commands.ts';
import { reportError } from './report-error.ts';
import { guardStrayOutput, setStrayOutputMode } from './stray-output.ts';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `--no-tool NAME` (repeatable): a list, not commander's negation of `--tool`. */
function withoutTool(): Option {
  const option = new Option('--no-tool <name>', 'do not offer this tool (repeatable)').argParser(collect).default([]);
  option.negate = false;
  return option;
}

function globals(command: Command): GlobalOptions {
  return readGlobalOptions(command.optsWithGlobals());
}

/**
 * Builds the command tree. Each action imports its module only when it runs. `written`: the query
 * `jp q` already had written in the editor before the CLI loaded (query/editor-first.ts).
 */
export function buildProgram(written?: WrittenQuery): Command {
  const program = new Command('jp')
    .description('A conversation engine for programmers: attach files, pages, command output and MCP resources to LLM conversations.')
    .version(version, '-V, --version')
    .option('-w, --workspace <dir>', 'workspace directory (default: found by walking up from the current directory)')
    .option('-c, --cfg <key=value>', 'set a configuration value (repeatable), e.g. -c assistant.model=echo', collect, [])
    .addOption(new Option('-F, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('-q, --quiet', 'print only the answer or the requested data')
    .option('--no-color', 'disable colour (so does NO_COLOR; FORCE_COLOR colours a pipe); colour is on for terminals only')
    .option('--no-render', 'print answers as the model wrote them, not rendered as Markdown (they are rendered on terminals only)')
    .option('-v, --verbose', 'print stack traces and debugging details on errors')
    .addOption(
      new Option('--lock-timeout <secs>', "seconds to wait for another process's turn on the same conversation (conversation.lock_timeout_secs, default 10)").argParser((value: string) => {
        if (!/^\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('expected seconds, e.g. --lock-timeout 30');
        return value;
      }),
    )
    .exitOverride();

  program
    .command('init')
    .description('create a jp workspace (.jp/) in DIR or the current directory')
    .argument('[dir]', 'directory to initialise')
    .option('--gitignore', "add .jp/ to DIR's .gitignore (created if missing)")
    .option('--no-gitignore', 'leave .gitignore alone, without asking')
    .action(async (dir: string | undefined, opts: { gitignore?: boolean }, cmd: Command) => {
      const { initCommand } = await import('../commands/init.ts');
      await initCommand(globals(cmd), dir, { gitignore: opts.gitignore });
    });

  program
    .command('query')
    .alias('q')
    .description('ask the model; stdin, when piped, is read and joined with TEXT')
    .argument('[text...]', 'the query')
    .option('-n, --new', 'start a new conversation')
    .option('--id <id>', 'conversation to continue (default: the active one, or $JP_CONVERSATION)')
    .option('-a, --attach <url>', 'attach a file, directory, glob or URL at this turn (repeatable; - attaches stdin)', collect, [])
    .option('-m, --model <id>', 'model id, e.g. echo or anthropic/claude-sonnet-5-5')
    .option('--title <title>', 'title of the conversation (a new one, or renames the one continued)')
    .option('-s, --schema <json|@file>', 'answer with JSON matching this JSON Schema; prints only the JSON')
    .option('-e, --edit', 'write the query in $VISUAL/$EDITOR, starting from TEXT (also what a query with no text does on a terminal)')
    .option('--explain', 'print the provider request as JSON; send nothing, store nothing')
    .option('--no-persist', 'do not store this turn')
    .option('--compact', 'compact the conversation by [conversation.compaction] first, then ask')
    .option('--allow-tools', 'run tools whose run policy is "ask" without asking')
    .option('--show-reasoning', "print the model's reasoning on stderr as it arrives (always stored)")
    .option('--reasoning <level>', 'how much the model reasons: off, minimal, low, medium, high, xhigh or max, sent as the nearest the model takes (assistant.reasoning)')
    .option('--tool <name>', 'offer only this tool (repeatable)', collect, [])
    .addOption(withoutTool())
    .action(async (text: string[], opts, cmd: Command) => {
      // A directory it attaches starts being read now, while the command's modules load (RFD 002).
      const early = await (await import('./start-read-ahead.ts')).startEarlyRead({ attach: opts.attach, workspace: globals(cmd).workspace });
      try {
        const { queryCommand } = await import('../commands/query.ts');
        await queryCommand(globals(cmd), text, opts, early, written);
      } finally {
        early?.dispose();
      }
    });

  program
    .command('chat')
    .description('talk to the model, one message after another: each is a jp query turn (/help inside lists the commands)')
    .option('--id <id>', 'conversation to continue (default: the active one, or $JP_CONVERSATION)')
    .option('-n, --new', 'start a new conversation')
    .option('-m, --model <id>', 'model id, e.g. echo or anthropic/claude-sonnet-5-5')
    .option('-a, --attach <url>', 'attach a file, directory, glob or URL to the first message (repeatable)', collect, [])
    .option('--title <title>', 'title of the conversation (a new one, or renames the one continued)')
    .option('--show-reasoning', "print the model's reasoning on stderr as it arrives")
    .option('--reasoning <level>', 'how much the model reasons: off, minimal, low, medium, high, xhigh or max, sent as the nearest the model takes (assistant.reasoning)')
    .action(async (opts, cmd: Command) => {
      const { chatCommand } = await import('../commands/chat.ts');
      await chatCommand(globals(cmd), opts);
    });

  const attachment = program.command('attachment').alias('a').description('manage the attachments declared in a conversation');
  attachment
    .command('add')
    .description('declare attachments; they are resolved into the next query')
    .argument('<url...>', 'files, directories, globs or URLs')
    .option('--id <id>', 'conversation (default: the active one)')
    .action(async (urls: string[], opts, cmd: Command) => {
      const { attachmentAdd } = await import('../commands/attachment.ts');
      await attachmentAdd(globals(cmd), urls, opts);
    });
  attachment
    .command('ls')
    .description('list declared attachments with the turn, size and checksum of their newest snapshot')
    .option('--id <id>', 'conversation (default: the active one)')
    .option('--check', 're-read the refreshable ones and say whether each is fresh, changed or missing')
    .action(async (opts, cmd: Command) => {
      const { attachmentLs } = await import('../commands/attachment.ts');
      await attachmentLs(globals(cmd), opts);
    });
  attachment
    .command('rm')
    .description('remove a declaration by URL or by its number in `jp attachment ls`; snapshots already sent stay')
    .argument('<url-or-index...>', 'declaration or 1-based index')
    .option('--id <id>', 'conversation (default: the active one)')
    .action(async (targets: string[], opts, cmd: Command) => {
      const { attachmentRm } = await import('../commands/attachment.ts');
      await attachmentRm(globals(cmd), targets, opts);
    });

  addConversationCommands(program, globals);

  const mcp = program.command('mcp').description('inspect the MCP servers configured as mcp.<server> (command, args, env, cwd), or serve this workspace to MCP clients');
  mcp
    .command('ls')
    .description('list configured MCP servers: whether each starts, what it reports about itself, its capabilities')
    .action(async (_opts, cmd: Command) => {
      const { mcpLs } = await import('../commands/mcp.ts');
      await mcpLs(globals(cmd));
    });
  mcp
    .command('resources')
    .description("list a server's resources and resource templates (attach one with --attach mcp+SERVER+URI)")
    .argument('<server>', 'configured server name')
    .action(async (server: string, _opts, cmd: Command) => {
      const { mcpResources } = await import('../commands/mcp.ts');
      await mcpResources(globals(cmd), server);
    });
  mcp
    .command('serve')
    .description("serve this workspace's conversations to MCP clients over stdio (read-only): jp://conversation/{id}, …/turn/{n}, …/resource/{sha256}")
    .option('--poll', 'notice new turns by polling every second instead of watching the files (for file systems without change events)')
    .action(async (opts: { poll?: boolean }, cmd: Command) => {
      const { mcpServe } = await import('../commands/mcp-serve.ts');
      await mcpServe(globals(cmd), opts);
    });

  program
    .command('gc')
    .description('delete stored blobs that no conversation refers to any more')
    .action(async (_opts, cmd: Command) => {
      const { gcCommand } = await import('../commands/gc.ts');
      await gcCommand(globals(cmd));
    });

  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .argument('<shell>', 'bash, zsh or fish')
    .addHelpText(
      'after',
      [
        '',
        'Install (values such as conversation ids, models and MCP servers are read when Tab is pressed):',
        '  bash  add to ~/.bashrc:  eval "$(jp completion bash)"',
        '  zsh   add to ~/.zshrc after compinit:  eval "$(jp completion zsh)"',
        '        or save it as _jp in a directory of $fpath:  jp completion zsh > ~/.zfunc/_jp',
        '  fish  jp completion fish > ~/.config/fish/completions/jp.fish',
      ].join('\n'),
    )
    .action(async (shell: string, _opts, cmd: Command) => {
      const { completionCommand } = await import('../commands/completion.ts');
      completionCommand(globals(cmd), shell, buildProgram());
    });

  program
    .command('models')
    .description("what jp knows of each model: window, output limit, reasoning, structured output, media, prices, and where each came from")
    .argument('[provider]', 'anthropic, openai, google, openrouter or ollama (default: all)')
    .option('--refresh', "first fetch the providers' own model listings (those whose keys, or local server, are set) and cache them")
    .action(async (provider: string | undefined, opts: { refresh?: boolean }, cmd: Command) => {
      const { modelsCommand } = await import('../commands/models.ts');
      await modelsCommand(globals(cmd), provider, opts);
    });

  const config = program.command('config').description('show, get or change configuration (every key: docs/config.md)');
  config
    .command('show')
    .description('print each effective value and where it came from')
    .option('--id <id>', 'conversation')
    .action(async (opts, cmd: Command) => {
      const { configShow } = await import('../commands/config.ts');
      await configShow(globals(cmd), opts);
    });
  config
    .command('get')
    .description('print one effective value (text as it is, anything else as TOML)')
    .argument('<key>', 'dotted key, e.g. assistant.model or providers.openai.models."gpt-4.1".context_window')
    .option('--id <id>', "a conversation's value (its own keys over the config files)")
    .action(async (key: string, opts: { id?: string }, cmd: Command) => {
      const { configGet } = await import('../commands/config.ts');
      await configGet(globals(cmd), key, opts);
    });
  config
    .command('set')
    .description('set a value in .jp/config.toml (keeping its comments and layout), the user file, or a conversation')
    .argument('<key>', 'dotted key, e.g. assistant.model; quote a word with dots: models."gpt-4.1"')
    .argument('<value>', 'a TOML value; bare words are strings')
    .option('--user', "set it in the user's config file (~/.config/jp/config.toml) instead")
    .option('--id <id>', 'set it in this conversation: it keeps the value whatever the files say')
    .action(async (key: string, value: string, opts: { user?: boolean; id?: string }, cmd: Command) => {
      const { configSet } = await import('../commands/config.ts');
      await configSet(globals(cmd), key, value, opts);
    });
  config
    .command('unset')
    .description('take a key out of .jp/config.toml, the user file, or a conversation (which then follows the files again)')
    .argument('<key>', 'dotted key, e.g. conversation.compaction.auto')
    .option('--user', "unset it in the user's config file instead")
    .option('--id <id>', 'unset what this conversation set')
    .action(async (key: string, opts: { user?: boolean; id?: string }, cmd: Command) => {
      const { configUnset } = await import('../commands/config.ts');
      await configUnset(globals(cmd), key, opts);
    });

  return program;
}

/** `jp`, `jp conversation show`, …: a command as typed. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at !== null; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/**
 * Commander prints its own errors (two lines, never JSON); instead each command notes which of
 * them failed, and `main` reports the error as every other one (`reportError`). Help is untouched.
 */
function captureParseErrors(program: Command): { failed: () => Command | undefined } {
  let failed: Command | undefined;
  const visit = (command: Command): void => {
    command.configureOutput({ outputError: () => (failed = command) });
    command.commands.forEach(visit);
  };
  visit(program);
  return { failed: () => failed };
}

/** A parse error of commander as a usage error: one line, a stable code, and where the usage is. */
export function usageErrorOf(error: CommanderError, command: string): UsageError {
  const message = error.message
    .replace(/^error: /, '')
    .replace(/\s*\(Did you mean (.*)\?\)\s*$/, ' (did you mean $1?)')
    .replace(/\.$/, '');
  const code = error.code.replace(/^commander\./, '').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  return new UsageError(`${message}; see \`${command} --help\``, { code });
}

/** Runs the CLI and returns the exit code. `written`: see `buildProgram`. */
export async function main(args: string[], written?: WrittenQuery): Promise<number> {
  guardStrayOutput();
  useValidatedConfigCache(userCacheDir());
  const program = buildProgram(written);
  program.hook('preAction', (_program, command) => setStrayOutputMode(globals(command)));
  const parse = captureParseErrors(program);
  try {
    await program.parseAsync(args, { from: 'user' });
    // A command may end without an error and still say something by its status
    // (`jp conversation grep` that finds nothing exits 1, as grep does).
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    const raw = program.opts();
    if (error instanceof CommanderError) {
      const failed = parse.failed();
      // Help and version were printed (help on stderr when no command was given): exit 0, or 2.
      if (failed === undefined) return error.exitCode === 0 ? 0 : 2;
      return reportError(usageErrorOf(error, commandPath(failed)), readGlobalOptions(raw));
    }
    return reportError(error, readGlobalOptions(raw));
  }
}
