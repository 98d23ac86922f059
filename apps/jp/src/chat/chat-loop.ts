import { existsSync } from 'node:fs';
import path from 'node:path';
import { isJpError } from '@jp/core';
import { parseModelId } from '@jp/providers';
import type { CommandContext } from '../cli/command-context.ts';
import type { GlobalOptions } from '../cli/global-options.ts';
import { attachmentAdd, attachmentLs, attachmentRm } from '../commands/attachment.ts';
import { conversationFork } from '../commands/conversation.ts';
import { runQuery, type QueryHooks } from '../commands/query.ts';
import { QueryDraft } from '../editor/query-draft.ts';
import type { QueryOptions } from '../query/read-invocation.ts';
import { chatBanner, nextModel } from './chat-banner.ts';
import { appendChatHistory, chatHistoryFile, loadChatHistory } from './chat-history.ts';
import { chatHelp, parseChatInput, type ChatInput } from './chat-commands.ts';
import { completeChatLine } from './chat-completer.ts';
import { BRACKETED_PASTE_OFF } from './paste-filter.ts';
import { readMessage, type PromptState } from './read-message.ts';
import { TurnKeys } from './turn-keys.ts';
import { typedPath } from './typed-path.ts';

/** What the chat carries from one message to the next. */
export interface ChatState {
  /** The conversation; `undefined` until the first message of a new one is stored. */
  id: string | undefined;
  model: string | undefined;
  /** `--title`, applied with the next message. */
  title: string | undefined;
  /** `-a` and `/attach` before the conversation exists: they go with the next message. */
  pending: string[];
  /** Turns the conversation had after this chat's last message, to notice turns from elsewhere. */
  turnsSeen: number | undefined;
  showReasoning: boolean;
  /** `--reasoning`, for every message of the chat. */
  reasoning?: string | undefined;
}

/** The turns stored now, or undefined when the conversation cannot be read (the turn will say why). */
function storedTurns(ctx: CommandContext, id: string): number | undefined {
  return ctx.store.readableMetadata(id)?.turnCount;
}

/** A file argument that names nothing: refused at the prompt, before anything is resolved. */
function missingPath(url: string, cwd: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || /[*?[{]/.test(url) || url.startsWith('~')) return false;
  return !existsSync(path.resolve(cwd, url));
}

/** A failed send: the error, and what the message or draft can still be found as. */
class SendFailed extends Error {
  constructor(
    readonly error: unknown,
    readonly kept: string | undefined,
  ) {
    super('send failed');
  }
}

/** Where an unsent /edit message waits: its draft (RFD 023), if the editor left one. */
function keptDraft(ctx: CommandContext, state: ChatState, error: unknown): string | undefined {
  // The editor's own failure already names the draft; an empty query leaves none.
  if (isJpError(error) && (error.code === 'editor_failed' || error.code === 'empty_query')) return undefined;
  const draft = new QueryDraft(ctx.workspace.jpDir, state.id);
  if (draft.read() === undefined) return undefined;
  return `your draft is kept in ${path.relative(ctx.workspace.root, draft.file)} and /edit starts from it`;
}

/** Runs one message as a `jp query` turn; failures are one line and the chat goes on. */
async function sendMessage(ctx: CommandContext, state: ChatState, text: string, extra: Partial<QueryOptions> = {}, hooks: QueryHooks = {}): Promise<void> {
  if (state.id !== undefined && state.turnsSeen !== undefined) {
    const now = storedTurns(ctx, state.id);
    if (now !== undefined && now > state.turnsSeen) {
      const added = now - state.turnsSeen;
      ctx.output.note(`jp: ${added} turn${added === 1 ? ' was' : 's were'} added to this conversation from elsewhere; going on from the stored history`);
    }
  }
  const options: QueryOptions = {
    attach: state.pending,
    tool: [],
    noTool: [],
    new: state.id === undefined,
    ...(state.id === undefined ? {} : { id: state.id }),
    ...(state.model === undefined ? {} : { model: state.model }),
    ...(state.title === undefined ? {} : { title: state.title }),
    showReasoning: state.showReasoning,
    ...(state.reasoning === undefined ? {} : { reasoning: state.reasoning }),
    ...extra,
  };
  let result: Awaited<ReturnType<typeof runQuery>>;
  try {
    result = await runQuery(ctx, text === '' ? [] : [text], options, undefined, hooks);
  } catch (error) {
    if (options.explain) throw error;
    throw new SendFailed(error, options.edit ? keptDraft(ctx, state, error) : 'your message is kept: Up brings it back');
  }
  if (options.explain) return;
  state.id = result.id;
  state.pending = [];
  state.title = undefined;
  state.turnsSeen = result.turn + 1;
}

/**
 * Reports a failure the way the CLI does, in one line, and keeps the chat going. A failed send
 * says, on the same line, that the message (or the /edit draft) was kept and how to get it back.
 */
function report(ctx: CommandContext, thrown: unknown, verbose: boolean): void {
  const error = thrown instanceof SendFailed ? thrown.error : thrown;
  const kept = thrown instanceof SendFailed && thrown.kept !== undefined ? `; ${thrown.kept}` : '';
  if (isJpError(error)) ctx.output.error({ code: error.code, exitCode: error.exitCode, message: `${error.message}${kept}` });
  else ctx.output.error({ code: 'runtime_error', exitCode: 1, message: `${error instanceof Error ? error.message : String(error)}${kept}` });
  if (verbose && error instanceof Error && error.stack) ctx.output.detail(error.stack);
}

/** A message as the prompt would have shown it typed: `jp> ` and its lines. */
function echoMessage(ctx: CommandContext, text: string): void {
  ctx.output.line(...text.split('\n').map((line, index) => `${index === 0 ? 'jp> ' : '\n    '}${line}`));
}

async function runCommand(ctx: CommandContext, globals: GlobalOptions, state: ChatState, input: Extract<ChatInput, { type: 'command' }>): Promise<'quit' | void> {
  const quiet = globals;
  switch (input.name) {
    case '/quit':
      return 'quit';
    case '/help':
      ctx.output.line(chatHelp());
      return;
    case '/attach': {
      if (input.args.length === 0) throw new Error('/attach needs a file, directory, glob or URL');
      // A name shown in its visible form (Tab, /ls) is typed in that form: read back to the real one.
      const urls = input.args.map((url) => typedPath(url, ctx.cwd));
      const missing = urls.find((url) => missingPath(url, ctx.cwd));
      if (missing !== undefined) throw new Error(`${missing} does not exist; nothing attached`);
      if (state.id === undefined) {
        state.pending.push(...urls.filter((url) => !state.pending.includes(url)));
        for (const url of urls) ctx.output.line(`added ${url} (goes with your next message)`);
      } else await attachmentAdd(quiet, urls, { id: state.id });
      return;
    }
    case '/detach': {
      if (input.args.length !== 1) throw new Error('/detach needs one attachment: a URL, or its index in /ls');
      const url = typedPath(input.args[0]!, ctx.cwd);
      if (state.id === undefined) {
        const at = state.pending.indexOf(url);
        if (at === -1) throw new Error(`${url} is not attached`);
        state.pending.splice(at, 1);
        ctx.output.line(`removed ${url}`);
      } else await attachmentRm(quiet, [url], { id: state.id });
      return;
    }
    case '/ls':
      if (state.id === undefined) ctx.output.line(state.pending.length === 0 ? 'no attachments yet' : state.pending.map((url, index) => `${index}  ${url} (with your next message)`).join('\n'));
      else await attachmentLs(quiet, { id: state.id });
      return;
    case '/model': {
      if (input.args.length !== 1) throw new Error('/model needs one model id, e.g. /model echo');
      parseModelId(input.args[0]!);
      state.model = input.args[0];
      ctx.output.note(`jp: ${state.model} answers from the next message on`);
      return;
    }
    case '/new':
      state.id = undefined;
      state.turnsSeen = undefined;
      ctx.output.note('jp: your next message starts a new conversation');
      return;
    case '/fork': {
      if (state.id === undefined) throw new Error('nothing to fork yet: send a message first');
      state.id = await conversationFork({ ...globals, quiet: true }, state.id, {});
      state.turnsSeen = storedTurns(ctx, state.id);
      ctx.output.note(`jp: going on in the fork ${state.id}`);
      return;
    }
    case '/compact': {
      if (state.id === undefined) throw new Error('nothing to compact yet: send a message first');
      if (input.args.some((arg) => arg !== '--summarize' && arg !== '--force')) throw new Error('/compact takes only --summarize and --force; `jp conversation compact --help` has the rest');
      const { conversationCompact } = await import('../commands/conversation-compact.ts');
      await conversationCompact(quiet, state.id, { ...(input.args.includes('--summarize') ? { summarize: true } : {}), ...(input.args.includes('--force') ? { force: true } : {}) });
      return;
    }
    case '/explain':
      await sendMessage(ctx, state, input.rest === '' ? '(your next message)' : input.rest, { explain: true });
      return;
    case '/edit':
      // The message written in the editor goes into the transcript, as a typed one is.
      await sendMessage(ctx, state, '', { edit: true }, { composed: (text) => echoMessage(ctx, text) });
      return;
  }
}

/**
 * `jp chat`: read a message, run it as a `jp query` turn, print the answer, again. Every turn takes
 * the conversation's lock for itself only, so another terminal can add turns in between; the chat
 * says so and goes on from what is stored. Nothing the chat keeps between turns grows with them.
 */
export async function chatLoop(ctx: CommandContext, globals: GlobalOptions, state: ChatState): Promise<void> {
  const historyFile = chatHistoryFile(process.env);
  const prompt: PromptState = { history: loadChatHistory(historyFile), lastEmptyInterrupt: 0 };
  const note = (message: string) => ctx.output.note(`jp: ${message}`);
  try {
    const model = await nextModel(ctx, globals, state.id, state.model);
    ctx.output.note(chatBanner({ id: state.id, title: state.id === undefined ? undefined : ctx.store.readableMetadata(state.id)?.title, model }));
  } catch (error) {
    // A configuration that does not load: said now, and again by the turn that needs it.
    ctx.output.note(chatBanner({ id: state.id, title: undefined, model: 'unknown' }));
    report(ctx, error, globals.verbose === true);
  }
  const keys = new TurnKeys();
  let typeAhead = '';
  // Raw mode and bracketed paste last the whole chat (a paste during a turn is one message too); Node
  // restores the terminal's mode at exit, the paste mode is ours to end, however the chat ends.
  const endPaste = () => process.stdout.write(BRACKETED_PASTE_OFF);
  process.once('exit', endPaste);
  try {
    for (;;) {
      const read = await readMessage('jp> ', prompt, (line) => completeChatLine(line, ctx.cwd), note, typeAhead);
      typeAhead = '';
      if (read.type === 'exit') return;
      const text = read.text.trim();
      if (text === '') continue;
      appendChatHistory(historyFile, read.text);
      const input = parseChatInput(text);
      // Until the next prompt the chat holds the keys: nothing typed is echoed over the answer.
      keys.hold();
      try {
        if (input.type === 'unknown') throw new Error(`unknown command ${input.name}; /help lists the commands (start with // to send a line that begins with /)`);
        if (input.type === 'command') {
          if ((await runCommand(ctx, globals, state, input)) === 'quit') return;
        } else await sendMessage(ctx, state, input.text);
      } catch (error) {
        report(ctx, error, globals.verbose === true);
      } finally {
        typeAhead = keys.release();
      }
    }
  } finally {
    process.off('exit', endPaste);
    endPaste();
    process.stdin.setRawMode?.(false);
  }
}
