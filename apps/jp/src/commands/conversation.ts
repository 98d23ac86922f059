import { createInterface } from 'node:readline/promises';
import { compactionsForFork, loadSchemas, resolveResourceContent, UsageError, type CompactionEvent, type ConfigDeltaEvent } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import { Output } from '../output/output.ts';
import { page } from '../output/pager.ts';
import { selectTurns, type TurnSelection } from '../conversation/select-turns.ts';
import { writeConversationText } from '../conversation/show-text.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { CONFIG_VERSION, conversationConfig, ownLayer } from '../conversation/conversation-config.ts';
import { markOpaque } from '../reasoning/mark-opaque.ts';
import { selectConversation } from '../conversation/select-conversation.ts';
import { resolveConversation } from '../conversation/resolve-conversation.ts';
import { removeConversation } from '../store/remove-conversation.ts';
import { splitConversationId } from '../store/conversation-branch-id.ts';
import { conversationActivity } from '../store/conversation-activity.ts';
import { recordTip } from '../store/clone-tips.ts';
import { chooseLine } from '../conversation/choose-line.ts';
import { linesJson } from '../conversation/line-notice.ts';
import { conversationWaitNotice } from '../store/lock-wait-notice.ts';

const { eventToJson } = await loadSchemas();

const HINT = 'pass an id; `jp conversation ls` lists them';

export interface ShowOptions extends TurnSelection {
  html?: boolean | undefined;
  output?: string | undefined;
  open?: boolean | undefined;
}

export async function conversationShow(globals: GlobalOptions, idArg: string | undefined, options: ShowOptions = {}): Promise<void> {
  if (!options.html && (options.output !== undefined || options.open)) {
    throw new UsageError(`${options.output !== undefined ? '-o/--output' : '--open'} goes with --html: \`jp conversation show --html${options.output !== undefined ? ' -o FILE' : ' --open'}\``, { code: 'usage_error' });
  }
  if (options.html) {
    // The page's renderer, its Markdown parser and the config schema load only here.
    const { conversationShowHtml } = await import('./conversation-html.ts');
    await conversationShowHtml(globals, idArg, HINT, options);
    return;
  }
  const ctx = workspaceContext(globals);
  const { store } = ctx;
  const { id, lines } = chooseLine(store.jpDir, selectConversation(store, idArg, HINT, { titles: true }), ctx.output);
  const metadata = store.metadata(id);
  const content = store.openContent();
  const { events: all, warnings } = await store.events(id, content);
  for (const warning of warnings) ctx.output.warn(warning);
  const { preamble, turns } = selectTurns(all, options);
  if (ctx.output.json) {
    // Every resource in its MCP JSON form, content inline; --turn/--last keep their turns' events.
    const events = options.turn === undefined && !options.last ? all : turns.flatMap((turn) => turn.events);
    const { id: _id, ...rest } = metadata;
    ctx.output.data({ id, ...rest, ...(lines === undefined ? {} : { lines: linesJson(lines) }), events: resolveResourceContent(events, (resource) => content.read(resource)).map((event) => markOpaque(eventToJson(event))) });
    return;
  }
  // On a terminal the text is gathered first: taller than the screen, it goes through the pager.
  const paging = process.stdout.isTTY === true;
  let text = '';
  const output = paging ? new Output(globals, { stdout: { write: (part: string) => (text += part), isTTY: true, columns: process.stdout.columns }, stderr: process.stderr, env: process.env }) : ctx.output;
  const renderMessage = output.rendersMarkdown(true) ? await messageRenderer(output) : undefined;
  output.line(['heading', `conversation ${id}`], metadata.title ? `  ${metadata.title}` : '');
  if (metadata.forkedFrom) output.line(['dim', `forked from ${metadata.forkedFrom.id}${metadata.forkedFrom.turn === null ? '' : ` at turn ${metadata.forkedFrom.turn}`}`]);
  writeConversationText(output, preamble, turns, { renderMessage });
  if (paging) await page(text, { rows: process.stdout.rows, write: (part) => process.stdout.write(part) });
}

/** Answers rendered as Markdown, as `jp query` shows them on a terminal. */
async function messageRenderer(output: Output): Promise<(message: string) => string> {
  const { markdownWriter } = await import('../render/markdown-writer.ts');
  return (message) => {
    let rendered = '';
    const writer = markdownWriter((part) => (rendered += part), { width: output.stdoutColumns, color: output.stdoutColor });
    writer.write(message);
    writer.end();
    return rendered;
  };
}

export async function conversationUse(globals: GlobalOptions, idArg: string): Promise<void> {
  const { store, output } = workspaceContext(globals);
  const id = resolveConversation(store, idArg);
  store.setActive(id);
  // Choosing a line of a conversation continued on more than one clone makes it this clone's (issue W).
  const { base, branch } = splitConversationId(id);
  const activity = conversationActivity(store.jpDir, base);
  const tip = branch === undefined ? activity?.mainTip : activity?.branches?.find((line) => line.key === branch)?.tip;
  if (activity?.branches !== undefined && tip !== undefined) recordTip(store.jpDir, base, tip);
  if (output.json) output.data({ active: id });
  else output.note(`active conversation: ${id}`);
}

export interface ForkOptions {
  untilTurn?: string;
  turns?: boolean;
  title?: string;
  activate?: boolean;
}

export async function conversationFork(globals: GlobalOptions, idArg: string | undefined, options: ForkOptions): Promise<string> {
  const { store, output } = workspaceContext(globals);
  const source = selectConversation(store, idArg, HINT, { titles: true });
  if (options.turns === false && options.untilTurn !== undefined) {
    throw new UsageError('--until-turn and --no-turns exclude each other', { code: 'usage_error' });
  }
  const metadata = store.metadata(source);
  // The fork's history is copied as stored: its blobs are shared, not read (RFD 008).
  const scanned = await store.scan(source);
  for (const warning of scanned.warnings) output.warn(warning);
  const baseConfig = store.baseConfig(source);

  let copy: { from: string; untilTurn: number | undefined } | undefined;
  let forkBase = baseConfig;
  let configVersion = metadata.configVersion;
  let events: ConfigDeltaEvent[] = [];
  let carried: CompactionEvent[] = [];
  let turn: number | null = null;
  let keptTurns = 0;
  if (options.turns === false) {
    // No turns: the fork starts from the files as its source last saw them, and what its source set
    // itself (declared attachments included) becomes one delta of its own, before its first turn,
    // which resolves every declared attachment.
    const config = conversationConfig(source, baseConfig, scanned.configEvents, metadata);
    const own = ownLayer(config);
    forkBase = config.filesSeen;
    configVersion = CONFIG_VERSION;
    if (Object.keys(own).length > 0) events = [{ type: 'config_delta', timestamp: new Date().toISOString(), delta: own }];
  } else if (options.untilTurn !== undefined) {
    const n = Number(options.untilTurn);
    if (!Number.isInteger(n) || n < 0 || n >= scanned.turns) {
      throw new UsageError(`--until-turn must be a turn of ${source} (0 to ${scanned.turns - 1}), not ${options.untilTurn}`, { code: 'usage_error' });
    }
    turn = n;
    copy = { from: source, untilTurn: n };
    keptTurns = n + 1;
    // Compactions appended after turn N come along, cut to the fork's turns (RFD 027).
    carried = compactionsForFork((await store.eventsWithoutContent(source)).events, n);
  } else {
    copy = { from: source, untilTurn: undefined };
    turn = scanned.turns > 0 ? scanned.turns - 1 : null;
    keptTurns = scanned.turns;
  }
  const title = options.title ?? (metadata.title ? `${metadata.title} (fork)` : undefined);
  const id = await store.create({ baseConfig: forkBase, configVersion, copy, events: [...events, ...carried], title, turnCount: keptTurns, forkedFrom: { id: source, turn } }, store.openContent());
  if (options.activate) store.setActive(id);
  if (output.json) output.data({ id, forkedFrom: { id: source, turn }, turns: keptTurns, active: options.activate === true });
  else {
    output.line(id);
    output.note(options.activate ? `the fork ${id} is now the active conversation` : `continue in the fork with: jp q --id ${id} "…" (or make it active: jp c use ${id})`);
  }
  return id;
}

export async function conversationRm(globals: GlobalOptions, idArg: string, options: { yes?: boolean }): Promise<void> {
  const ctx = workspaceContext(globals);
  const { store, output } = ctx;
  const id = resolveConversation(store, idArg);
  if (!options.yes) {
    if (!process.stdin.isTTY || !process.stderr.isTTY) {
      throw new UsageError(`refusing to delete ${id} without confirmation; pass --yes`, { code: 'confirmation_required' });
    }
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    const answer = await rl.question(`Delete conversation ${id}? [y/N] `);
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      output.note('not deleted');
      return;
    }
  }
  // The configuration (and the schema with it) loads only for a removal.
  const { readCfgArgs, readFileLayers, resolveConfig } = await import('../config/load-config.ts');
  const timeoutMs = resolveConfig([...readFileLayers(ctx.workspace.jpDir), readCfgArgs(globals.cfg)]).conversation.lock_timeout_secs * 1000;
  const release = await store.lock(id, timeoutMs, conversationWaitNotice(ctx, id, timeoutMs));
  const wasActive = store.activeId() === id;
  let how: 'deleted' | 'recorded';
  try {
    how = await removeConversation(store, id);
    // The next query starts a new conversation instead of pointing at one that is gone.
    if (wasActive) store.clearActive();
  } finally {
    release();
  }
  if (output.json) output.data({ removed: id, recorded: how === 'recorded' });
  else {
    const { base, branch } = splitConversationId(id);
    const what =
      branch !== undefined
        ? `removed the branch ${id} (recorded in ${base}'s events; ${base} and its other lines stay)`
        : how === 'recorded'
          ? `removed ${id} (git tracks it: the removal is recorded in its events, and its files stay for git's history)`
          : `deleted ${id}`;
    output.note(`${what}${wasActive ? '; no conversation is active now (the next jp query starts one)' : ''}`);
  }
}

export async function conversationPath(globals: GlobalOptions, idArg: string | undefined): Promise<void> {
  const { store, output } = workspaceContext(globals);
  const id = selectConversation(store, idArg, HINT);
  if (output.json) output.data({ id, path: store.dir(id) });
  else output.line(store.dir(id));
}
