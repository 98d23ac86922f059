import type { AttachmentRegistry, HandlerContext } from '@jp/attachments';
import type { ConversationEvent } from '@jp/core';
import type { Provider } from '@jp/providers';
import type { CommandContext } from '../cli/command-context.ts';
import type { EarlyRead } from '../cli/start-read-ahead.ts';
import type { Config } from '../config/config-schema.ts';
import { fileLayers, resolveConfig } from '../config/load-config.ts';
import type { ConfigLayer } from '../config/merge-config.ts';
import { conversationConfig, conversationLayers, filesRecord, type ConversationConfig } from '../conversation/conversation-config.ts';
import { closeMcpClients } from '../mcp/mcp-client-pool.ts';
import { createAttachmentRegistry, handlerContext } from '../resolution/attachment-runtime.ts';
import { FileContents } from '../store/file-content-cache.ts';
import { TurnContent } from '../store/turn-content.ts';
import { defaultModel } from '../turn/default-model.ts';
import { selectProvider } from '../turn/select-provider.ts';
import { catalogModel } from '../models/model-catalog.ts';
import type { ModelInfo } from '@jp/providers';
import { onInterrupt } from './interrupt.ts';
import type { QueryInvocation } from './read-invocation.ts';
import { conversationWaitNotice } from '../store/lock-wait-notice.ts';

/** The one warning for a model the catalog does not know: it still runs, and nothing is guessed (RFD 031). */
function unknownModel(provider: string, model: string): string {
  return `${provider}/${model} is not in jp's model catalog: it is sent without reasoning, output-limit or structured-output settings jp would have to guess (run jp models --refresh ${provider}, or describe it under providers.${provider}.models."${model}")`;
}

/** One line when jp decided something the user did not say: a new conversation, or the model. */
function announceStart(output: CommandContext['output'], invocation: QueryInvocation, model: string, keyEnv: string | undefined): void {
  const why = keyEnv === undefined ? '' : ` (no model configured; ${keyEnv} is the only provider key set)`;
  if (invocation.id === undefined && !invocation.options.new && invocation.persist) output.note(`jp: no active conversation: starting a new one with ${model}${why}`);
  else if (keyEnv !== undefined) output.note(`jp: using ${model}${why}`);
}

/** The model the conversation's last turn recorded, if it did. */
function lastTurnModel(history: readonly ConversationEvent[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i]!;
    if (event.type === 'turn_start') return (event as { model?: string }).model;
  }
  return undefined;
}

/** A query under way: its conversation, configuration, provider and resources; `close` releases them. */
export interface QuerySession {
  ctx: CommandContext;
  invocation: QueryInvocation;
  /** The conversation so far; resources refer to their content (`TurnContent`). */
  history: ConversationEvent[];
  /** What a new conversation stores as base-config.json; an existing one's as stored. */
  baseConfig: ConfigLayer;
  /** What the conversation set itself, and the workspace file as it last saw it. */
  conversation: ConversationConfig;
  /** The effective configuration: the files now, the conversation's own keys, this invocation's. */
  config: Config;
  provider: Provider;
  model: string;
  /** What the model catalog knows of the model (RFD 031); undefined for one it does not know. */
  modelInfo: ModelInfo | undefined;
  content: TurnContent;
  registry: AttachmentRegistry;
  handlerContext: HandlerContext;
  /** Aborted by Ctrl-C. */
  signal: AbortSignal;
  close(): Promise<void>;
}

/**
 * Opens a query's session: takes the conversation's lock (when the turn will be stored), reads its
 * history with every blob verified, and settles the configuration and the provider. The stores
 * are the read-ahead's when it read in this workspace.
 */
export async function openSession(
  ctx: CommandContext,
  invocation: QueryInvocation,
  early: EarlyRead | undefined,
  options: { preview?: boolean } = {},
): Promise<QuerySession> {
  const { store, output } = ctx;
  const { id, files, cli } = invocation;
  const lockTimeout = resolveConfig([...fileLayers(files), cli]).conversation.lock_timeout_secs;
  // A preview (the editor's template) reads what is stored without holding the conversation.
  const release = id === undefined || !invocation.persist || options.preview ? undefined : await store.lock(id, lockTimeout * 1000, conversationWaitNotice(ctx, id, lockTimeout * 1000));
  const interrupt = onInterrupt();
  const mine = early?.jpDir === ctx.workspace.jpDir ? early : undefined;
  const spool = mine?.spool ?? store.blobs.createSpool();
  const content = new TurnContent(store.blobs, spool, mine?.fileContents ?? new FileContents(ctx.workspace.jpDir, store.blobs));
  let hctx: HandlerContext | undefined;
  const close = async (): Promise<void> => {
    interrupt.dispose();
    // An early tree this query did not take reads no further; what nobody stored is removed.
    mine?.readAhead.close();
    spool.discard();
    release?.();
    await closeMcpClients(hctx?.mcp);
  };
  try {
    // A turn that could not be stored fails now, before the model is asked: the metadata is read
    // when the turn is stored, and a damaged file would fail the query after its answer.
    const metadata = id === undefined ? undefined : release !== undefined ? store.metadata(id) : store.readableMetadata(id);
    const loaded = id === undefined ? { events: [], warnings: [] } : await store.events(id, content);
    for (const warning of loaded.warnings) output.warn(warning);
    // Lines written before blobs carry their content inline: the stream refers to content by digest.
    const history = content.stageEvents(loaded.events);
    // A new conversation stores the workspace file (its secret values left out) as the files it saw
    // first; the user's file is never stored. Values come from the files as they are now.
    const baseConfig = id === undefined ? filesRecord(files) : store.baseConfig(id);
    const conversation = conversationConfig(id ?? 'new', baseConfig, history, metadata);
    const config = resolveConfig([...conversationLayers(files, conversation), cli]);
    const chosen = config.assistant.model === undefined ? defaultModel(config, process.env) : undefined;
    // jp's own pick is recorded as the turn's model (turn_start), not as a key the conversation set,
    // so a later assistant.model in the files reaches it (RFD 014).
    if (chosen !== undefined) config.assistant.model = chosen.model;
    const { provider, model } = selectProvider(config, process.env, { keyOptional: invocation.options.explain === true });
    // The pick is said when it starts or changes a conversation's model, not at every turn.
    const keyEnv = chosen !== undefined && lastTurnModel(history) !== chosen.model ? chosen.keyEnv : undefined;
    if (!options.preview) announceStart(output, invocation, config.assistant.model!, keyEnv);
    const modelInfo = provider.id === 'echo' ? undefined : catalogModel(config, provider.id, model);
    if (modelInfo === undefined && provider.id !== 'echo' && !options.preview) output.warn(unknownModel(provider.id, model));
    hctx = {
      ...handlerContext(ctx.workspace, ctx.cwd, config, output),
      signal: interrupt.signal,
      fileContents: content.fileContents,
      spool,
      readAhead: mine?.readAhead,
    };
    const registry = createAttachmentRegistry(ctx.workspace.jpDir);
    return { ctx, invocation, history, baseConfig, conversation, config, provider, model, modelInfo, content, registry, handlerContext: hctx, signal: interrupt.signal, close };
  } catch (error) {
    await close();
    throw error;
  }
}
