import { UsageError } from '@jp/core';
import type { CommandContext } from '../cli/command-context.ts';
import { checkLayer, readCfgArgs, readConfigFiles, type ConfigFiles } from '../config/load-config.ts';
import { mergeLayers, type ConfigLayer } from '../config/merge-config.ts';
import type { SourcedLayer } from '../config/sourced-layer.ts';
import { chooseLine } from '../conversation/choose-line.ts';
import { selectConversation } from '../conversation/select-conversation.ts';
import type { Lines } from '../store/your-line.ts';
import { compileSchema, readSchemaOption } from './answer-schema.ts';
import { readQueryText, stdinIsPiped } from './read-query-text.ts';
import { readStdinInput, type StdinInput } from './stdin-resource.ts';

/** `jp query`'s options as commander gives them. */
export interface QueryOptions {
  new?: boolean;
  id?: string;
  attach: string[];
  model?: string;
  title?: string;
  schema?: string;
  explain?: boolean;
  persist?: boolean;
  allowTools?: boolean;
  tool: string[];
  noTool: string[];
  showReasoning?: boolean;
  edit?: boolean;
  reasoning?: string;
  /** `--compact`: compact by `[conversation.compaction]` before asking (RFD 027). */
  compact?: boolean;
}

/** What one `jp query` asks for, checked before anything is resolved or locked. */
export interface QueryInvocation {
  options: QueryOptions;
  query: string;
  /** `--attach -`: what was piped, made a resource when the turn opens. */
  stdin: StdinInput | undefined;
  /** The configuration this invocation sets (`-c`, `--model`, `--reasoning`). */
  layer: ConfigLayer;
  /** What of it the conversation keeps: `--model` and `--reasoning` (a `-c` is for this command only). */
  stored: ConfigLayer;
  /** The same, each `-c` and `--model` named on its own for errors. */
  cli: SourcedLayer;
  /** The user's and the workspace's config files. */
  files: ConfigFiles;
  /** The conversation to continue (this clone's line of it, RFD 029); `undefined` starts one. */
  id: string | undefined;
  /** The conversation's lines when it was continued on more than one clone. */
  lines: Lines | undefined;
  schema: Record<string, unknown> | undefined;
  checkAnswer: ((answer: string) => unknown) | undefined;
  /** Whether the turn is stored (not `--no-persist`, not `--explain`). */
  persist: boolean;
  /** The query is to be written in the editor, starting from `prefill` (`-e TEXT`, or nothing). */
  edit: { prefill: string } | undefined;
}

/** Whether a person is at the terminal: the editor needs both ends of it. */
function atTerminal(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/** Stdin is either the query's text or, with `--attach -`, a resource; never both. */
async function readInputs(textArgs: string[], attach: string[]): Promise<{ query: string; stdin: StdinInput | undefined }> {
  if (!attach.includes('-')) return { query: await readQueryText(textArgs), stdin: undefined };
  if (!stdinIsPiped()) throw new UsageError('--attach - reads stdin, but nothing is piped in', { code: 'usage_error' });
  return { query: textArgs.join(' ').trim(), stdin: await readStdinInput() };
}

/** Reads and checks everything the user typed or piped: usage errors come before any work. */
export async function readInvocation(ctx: CommandContext, textArgs: string[], options: QueryOptions): Promise<QueryInvocation> {
  if (options.new && options.id !== undefined) throw new UsageError('--new and --id exclude each other', { code: 'usage_error' });
  const parts = [...(readCfgArgs(ctx.globals.cfg).parts ?? [])];
  if (options.model !== undefined) parts.push({ source: 'invocation', label: '--model', layer: checkLayer({ assistant: { model: options.model } }, '--model') });
  if (options.reasoning !== undefined) parts.push({ source: 'invocation', label: '--reasoning', layer: checkLayer({ assistant: { reasoning: options.reasoning } }, '--reasoning') });
  const layer = mergeLayers(parts.map((part) => part.layer));
  // What carries on for the conversation: --model and --reasoning, never a -c (RFD 014).
  const stored = mergeLayers(parts.filter((part) => part.label === '--model' || part.label === '--reasoning').map((part) => part.layer));
  const cli: SourcedLayer = { source: 'invocation', label: 'the command line', layer, parts };
  const schema = options.schema === undefined ? undefined : readSchemaOption(options.schema, ctx.cwd);
  const checkAnswer = schema === undefined ? undefined : await compileSchema(schema);
  const files = readConfigFiles(ctx.workspace.jpDir);
  // No conversation named and none active: this query starts one (`openSession` says so).
  const selected = options.new ? undefined : selectConversation(ctx.store, options.id, '', { orNew: true });
  // After a pull that made a divergence, this clone goes on with its own line (issue W).
  const chosen = selected === undefined ? undefined : chooseLine(ctx.store.jpDir, selected, ctx.output);
  const id = chosen?.id;
  if (options.edit && !atTerminal()) {
    throw new UsageError('--edit needs a terminal (stdin and stdout); give the query as arguments or on stdin instead', { code: 'usage_error' });
  }
  const { query, stdin } = await readInputs(textArgs, options.attach);
  // With no text at a terminal the query is written in the editor, as `git commit` does.
  const edit = options.edit || (query === '' && atTerminal()) ? { prefill: query } : undefined;
  if (edit === undefined && query === '' && options.attach.length === 0) {
    throw new UsageError('nothing to ask: give the query as arguments or on stdin', { code: 'empty_query' });
  }
  return { options, query, stdin, layer, stored, cli, files, id, lines: chosen?.lines, schema, checkAnswer, persist: options.persist !== false && !options.explain, edit };
}
