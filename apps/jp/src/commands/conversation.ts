import { createInterface } from 'node:readline/promises';
import { groupTurns, loadSchemas, resolveResourceContent, resourceByteLength, resourceEncoding, UsageError, type ChatRequestEvent, type ChatResponseEvent, type ConfigDeltaEvent, type ConversationEvent } from '@jp/core';
import type { GlobalOptions } from '../cli/global-options.ts';
import type { Span } from '../output/output.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { formatKey } from '../config/format-key.ts';
import { CONFIG_VERSION, conversationConfig, ownLayer } from '../conversation/conversation-config.ts';
import { markOpaque } from '../reasoning/mark-opaque.ts';
import { selectConversation } from '../conversation/select-conversation.ts';

const { eventToJson } = await loadSchemas();

const HINT = 'pass an id; `jp conversation ls` lists them';

export interface ShowOptions {
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
  const { store, output } = workspaceContext(globals);
  const id = selectConversation(store, idArg, HINT);
  const metadata = store.metadata(id);
  const content = store.openContent();
  const { events, warnings } = await store.events(id, content);
  for (const warning of warnings) output.warn(warning);
  if (output.json) {
    // Every resource in its MCP JSON form, content inline.
    const { id: _id, ...rest } = metadata;
    output.data({ id, ...rest, events: resolveResourceContent(events, (resource) => content.read(resource)).map((event) => markOpaque(eventToJson(event))) });
    return;
  }
  output.line(['heading', `conversation ${id}`], metadata.title ? `  ${metadata.title}` : '');
  if (metadata.forkedFrom) output.line(['dim', `forked from ${metadata.forkedFrom.id}${metadata.forkedFrom.turn === null ? '' : ` at turn ${metadata.forkedFrom.turn}`}`]);
  const { preamble, turns } = groupTurns(events);
  // Events before the first turn: what `jp attachment add|rm` and a fork without turns recorded.
  for (const event of preamble) describeEvent(event, (...spans) => output.line(...spans));
  for (const turn of turns) {
    output.line();
    output.line(['heading', `── turn ${turn.index} ──`]);
    for (const event of turn.events) describeEvent(event, (...spans) => output.line(...spans));
  }
}

/** One event as lines of spans: who or what in colour, the untrusted text plain (Output makes it safe). */
function describeEvent(event: ConversationEvent, line: (...spans: Span[]) => void): void {
  switch (event.type) {
    case 'chat_request': {
      const request = event as Extract<ConversationEvent, { type: 'chat_request'; content: string }>;
      line(['role', 'user:'], ` ${request.content}`);
      for (const resource of request.resources) {
        const kind = resourceEncoding(resource) === 'text' ? 'text' : 'blob';
        line(
          ['resource', '  resource '],
          resource.name ?? resource.uri,
          '  ',
          ['dim', `${resource.uri}  (${resource.mimeType ?? 'unknown type'}, ${kind}, ${resourceByteLength(resource)} bytes)`],
        );
      }
      // What jp added to the request about declared files that changed (RFD 020).
      for (const notice of (request as ChatRequestEvent).notices ?? []) line(['dim', '  notice '], notice.text);
      break;
    }
    case 'chat_response': {
      const response = event as ChatResponseEvent;
      if ('message' in response) line(['role', 'assistant:'], ` ${response.message}`);
      else if ('reasoning' in response) line(['role', 'assistant (reasoning):'], ' ', ['dim', response.reasoning ?? '']);
      else line(['role', 'assistant (structured):'], ` ${JSON.stringify(response.structured)}`);
      break;
    }
    case 'config_delta': {
      const delta = event as ConfigDeltaEvent;
      if (delta.source !== 'files') {
        line(['dim', `config: ${JSON.stringify(delta.delta)}`]);
        break;
      }
      const removed = (delta.removed ?? []).map((key) => formatKey(key));
      const changed = Object.keys(delta.delta).length > 0 ? JSON.stringify(delta.delta) : '';
      line(['dim', `config changed in .jp/config.toml: ${[changed, ...(removed.length > 0 ? [`removed ${removed.join(', ')}`] : [])].filter(Boolean).join('; ')}`]);
      break;
    }
    case 'tool_call_request':
      line(['role', 'tool call:'], ` ${(event as { name: string }).name} `, ['dim', JSON.stringify((event as { arguments: unknown }).arguments)]);
      break;
    case 'tool_call_response': {
      const isError = (event as { isError: boolean }).isError;
      line(['role', 'tool result'], isError ? ['bad', ' (error)'] : '', ['role', ':'], ` ${(event as { content: unknown[] }).content.length} block(s)`);
      break;
    }
    case 'turn_start':
      break;
    default:
      line(['dim', `(${event.type} event)`]);
  }
}

export async function conversationUse(globals: GlobalOptions, idArg: string): Promise<void> {
  const { store, output } = workspaceContext(globals);
  const id = store.resolveId(idArg);
  store.setActive(id);
  if (output.json) output.data({ active: id });
  else output.note(`active conversation: ${id}`);
}

export interface ForkOptions {
  untilTurn?: string;
  turns?: boolean;
  title?: string;
  activate?: boolean;
}

export async function conversationFork(globals: GlobalOptions, idArg: string | undefined, options: ForkOptions): Promise<void> {
  const { store, output } = workspaceContext(globals);
  const source = selectConversation(store, idArg, HINT);
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
  } else {
    copy = { from: source, untilTurn: undefined };
    turn = scanned.turns > 0 ? scanned.turns - 1 : null;
    keptTurns = scanned.turns;
  }
  const title = options.title ?? (metadata.title ? `${metadata.title} (fork)` : undefined);
  const id = await store.create({ baseConfig: forkBase, configVersion, copy, events, title, turnCount: keptTurns, forkedFrom: { id: source, turn } }, store.openContent());
  if (options.activate) store.setActive(id);
  if (output.json) output.data({ id, forkedFrom: { id: source, turn }, turns: keptTurns, active: options.activate === true });
  else output.line(id);
}

export async function conversationRm(globals: GlobalOptions, idArg: string, options: { yes?: boolean }): Promise<void> {
  const { store, output } = workspaceContext(globals);
  const id = store.resolveId(idArg);
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
  const release = await store.lock(id, 10_000);
  try {
    store.remove(id);
  } finally {
    release();
  }
  if (output.json) output.data({ removed: id });
  else output.note(`deleted ${id}`);
}

export async function conversationPath(globals: GlobalOptions, idArg: string | undefined): Promise<void> {
  const { store, output } = workspaceContext(globals);
  const id = selectConversation(store, idArg, HINT);
  if (output.json) output.data({ id, path: store.dir(id) });
  else output.line(store.dir(id));
}
