import path from 'node:path';
import { UsageError } from '@jp/core/errors';
import { dedupeResources, type ChatRequestEvent, type ConversationEvent, type Resource } from '@jp/core';
import type { HandlerContext } from '@jp/attachments';
import { endEarlyTree } from '@jp/attachments/early-tree';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { readCfgArgs, readFileLayers, resolveConfig, validateLayer } from '../config/load-config.ts';
import { mergeConfig, mergeLayers, type ConfigLayer } from '../config/merge-config.ts';
import { conversationLayers } from '../conversation/conversation-config.ts';
import { selectConversation } from '../conversation/select-conversation.ts';
import { closeMcpClients } from '../mcp/mcp-client-pool.ts';
import type { Output } from '../output/output.ts';
import { resolveProgress } from '../output/terminal-progress.ts';
import { compileSchema, readSchemaOption } from '../query/answer-schema.ts';
import { elideBlobs } from '../query/explain-request.ts';
import { onInterrupt } from '../query/interrupt.ts';
import { readQueryText, readStdinBytes, stdinIsPiped } from '../query/read-query-text.ts';
import { stdinResource } from '../query/stdin-resource.ts';
import { createAttachmentRegistry, handlerContext } from '../resolution/attachment-runtime.ts';
import { takeEarlyStore, type EarlyStore } from '../resolution/early-tree-start.ts';
import { planTurnAttachments, resolvePlan, urisInStream } from '../resolution/resolve-turn-attachments.ts';
import type { BlobSpool } from '../store/blob-spool.ts';
import { FileContents } from '../store/file-content-cache.ts';
import { loadMcpTools } from '../tools/mcp-tools.ts';
import { selectTools } from '../tools/select-tools.ts';
import { DEFAULT_RETRY_POLICY } from '../turn/retry-policy.ts';
import { selectProvider } from '../turn/select-provider.ts';
import { runTurnLoop, ToolRoundsExceeded, type TurnLoopResult } from '../turn/turn-loop.ts';

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
}

function defaultTitle(query: string): string | undefined {
  const first = query.split('\n', 1)[0]!.trim();
  if (first === '') return undefined;
  return first.length > 60 ? `${first.slice(0, 57)}...` : first;
}

/** Stdin is either the query's text or, with `--attach -`, a resource; never both. */
async function readInputs(textArgs: string[], attach: string[]): Promise<{ query: string; stdin: Resource | undefined }> {
  if (!attach.includes('-')) return { query: await readQueryText(textArgs), stdin: undefined };
  if (!stdinIsPiped()) throw new UsageError('--attach - reads stdin, but nothing is piped in', { code: 'usage_error' });
  const bytes = await readStdinBytes();
  return { query: textArgs.join(' ').trim(), stdin: stdinResource(bytes) };
}

/**
 * `jp query`: resolve this turn's attachments (ARCHITECTURE §4), run the turn (model, tools,
 * model…), then append the whole turn in one write. Anything that fails before the end leaves
 * the conversation as it was.
 */
export async function queryCommand(globals: GlobalOptions, textArgs: string[], options: QueryOptions): Promise<void> {
  // A directory attached on the command line may be being read already, into this store (RFD 002, "Starting early").
  let early: EarlyStore | undefined;
  const ctx = workspaceContext(globals, (jpDir) => (early = takeEarlyStore(jpDir))?.blobs);
  const { store, output } = ctx;
  if (options.new && options.id !== undefined) throw new UsageError('--new and --id exclude each other', { code: 'usage_error' });

  // Everything the user typed is checked before anything is read or locked.
  let invocation: ConfigLayer = readCfgArgs(globals.cfg);
  if (options.model !== undefined) invocation = mergeConfig(invocation, validateLayer({ assistant: { model: options.model } }, '--model'));
  const schema = options.schema === undefined ? undefined : readSchemaOption(options.schema, ctx.cwd);
  const checkAnswer = schema === undefined ? undefined : await compileSchema(schema);
  const fileLayers = readFileLayers(ctx.workspace.jpDir);
  const id = options.new ? undefined : selectConversation(store, options.id, 'start one with `jp query --new`, or pass --id');
  const { query, stdin } = await readInputs(textArgs, options.attach);
  if (query === '' && options.attach.length === 0) {
    throw new UsageError('nothing to ask: give the query as arguments or on stdin', { code: 'empty_query' });
  }
  const persist = options.persist !== false && !options.explain;

  const lockTimeout = resolveConfig([...fileLayers, invocation]).conversation.lock_timeout_secs;
  const release = id === undefined || !persist ? undefined : await store.lock(id, lockTimeout * 1000);
  const interrupt = onInterrupt();
  let mcp: HandlerContext['mcp'];
  let spool: BlobSpool | undefined;
  try {
    const baseConfig = id === undefined ? mergeLayers(fileLayers) : store.baseConfig(id);
    const loaded = id === undefined ? { events: [], warnings: [] } : await store.events(id);
    for (const warning of loaded.warnings) output.warn(warning);
    const history: ConversationEvent[] = loaded.events;
    const before = resolveConfig(conversationLayers(baseConfig, history), 'the conversation configuration');
    const config = resolveConfig([...conversationLayers(baseConfig, history), invocation], 'the configuration');
    const { provider, model } = selectProvider(config, process.env, { keyOptional: options.explain === true });

    // Resolution: this invocation's --attach, then declarations the stream has not seen.
    const registry = createAttachmentRegistry();
    const fileContents = early?.fileContents ?? new FileContents(ctx.workspace.jpDir, store.blobs);
    // Trees read for this turn are written to the blob store as they are read; only a stored turn keeps them.
    spool = early !== undefined ? early.spool : persist ? store.blobs.createSpool() : undefined;
    const hctx: HandlerContext = { ...handlerContext(ctx.workspace, ctx.cwd, config, output), signal: interrupt.signal, fileContents, spool };
    mcp = hctx.mcp;
    const attached: string[] = [];
    for (const input of options.attach) if (input !== '-') attached.push(await registry.validate(input, hctx));
    const plan = planTurnAttachments({
      declared: config.conversation.attachments,
      attached,
      streamUris: urisInStream(history),
      covers: (declaration, uri) => registry.covers(declaration, uri, hctx),
    });
    for (const declaration of plan.snapshotOnly) {
      output.warn(`${declaration} is a snapshot of a file outside the workspace and cannot be read again; attach the file again with --attach PATH`);
    }
    const progress = resolveProgress({ quiet: globals.quiet, json: output.json });
    let resources: Resource[];
    try {
      const { terminalAskOversize } = await import('../output/ask-oversize.ts');
      const resolving = resolvePlan(registry, plan, { ...hctx, progress, askOversize: terminalAskOversize(progress) });
      // The modules that store the turn load while the attachments resolve (a tree's files are read).
      if (persist) store.preloadWriting();
      resources = await resolving;
    } finally {
      progress?.done();
      // An early tree this turn did not resolve reads no further.
      endEarlyTree();
    }
    if (stdin !== undefined) resources.push(stdin);

    const now = new Date().toISOString();
    const turnIndex = history.filter((event) => event.type === 'turn_start').length;
    let delta: ConfigLayer = JSON.stringify(before) === JSON.stringify(config) ? {} : invocation;
    if (plan.newDeclarations.length > 0) {
      delta = mergeConfig(delta, { conversation: { attachments: [...config.conversation.attachments, ...plan.newDeclarations] } });
    }
    const request: ChatRequestEvent = { type: 'chat_request', timestamp: now, content: query, resources, ...(schema ? { schema } : {}) };
    const turnEvents: ConversationEvent[] = [
      { type: 'turn_start', timestamp: now },
      ...(Object.keys(delta).length > 0 ? [{ type: 'config_delta' as const, timestamp: now, delta }] : []),
      request,
    ];
    const events = [...history, ...turnEvents];
    const tools = selectTools({ config, events, mcpTools: await loadMcpTools(config, mcp), only: options.tool, without: options.noTool });
    const providerRequest = {
      model,
      system: config.assistant.system_prompt,
      maxTokens: config.assistant.max_tokens,
      schema,
    };
    const deduplication = { enabled: config.conversation.deduplication.enabled, minBytes: config.conversation.deduplication.min_bytes };

    if (options.explain) {
      const built = provider.buildRequest({ ...providerRequest, events: dedupeResources(events, deduplication), tools: tools.length > 0 ? tools.map((tool) => tool.definition) : undefined });
      for (const warning of built.warnings) output.warn(warning);
      output.data({ provider: provider.id, model, request: elideBlobs(built.request, resources), warnings: built.warnings });
      return;
    }

    const quietOutput = schema !== undefined && !output.json;
    let result: TurnLoopResult;
    let failure: unknown;
    try {
      result = await runTurnLoop({
        provider,
        request: providerRequest,
        events,
        tools,
        toolContext: {
          workspaceRoot: ctx.workspace.root,
          declarations: config.conversation.attachments,
          registry,
          handlerContext: hctx,
          output,
          interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
          allowTools: options.allowTools === true || config.assistant.allow_tools,
          prompt: (fn) => fn(),
        },
        output: quietOutput ? output.silenced() : output,
        retry: { ...DEFAULT_RETRY_POLICY, maxRetries: config.assistant.request.max_retries },
        maxRounds: config.assistant.max_tool_rounds,
        deduplication,
        showReasoning: options.showReasoning === true || config.assistant.show_reasoning,
        signal: interrupt.signal,
      });
    } catch (error) {
      if (interrupt.signal.aborted) throw interrupt.signal.reason;
      // A model that never stops calling tools: what it did is kept, and the query fails.
      if (!(error instanceof ToolRoundsExceeded)) throw error;
      failure = error;
      result = { events: error.events, text: '', usage: {} };
    }

    let structured: unknown;
    if (checkAnswer !== undefined && failure === undefined) {
      try {
        structured = checkAnswer(result.text);
      } catch (error) {
        failure = error;
      }
    }
    const answerEvents = structured === undefined ? result.events : withStructuredAnswer(result.events, structured);
    const all = [...turnEvents, ...answerEvents];

    let conversationId = id;
    if (persist) {
      if (id === undefined) {
        conversationId = await store.create({ baseConfig, events: all, title: options.title ?? defaultTitle(query), turnCount: 1 });
        store.setActive(conversationId);
      } else {
        await store.append(id, all);
        const metadata = store.metadata(id);
        store.writeMetadata({ ...metadata, turnCount: turnIndex + 1, lastActivityAt: new Date().toISOString() });
      }
      // Only now are the files read this turn stored: remember them for the next attach.
      try {
        fileContents.save();
      } catch (error) {
        output.warn(`could not update ${path.relative(ctx.workspace.root, fileContents.file)} (${error instanceof Error ? error.message : String(error)}); the next attach reads every file again`);
      }
    }
    if (failure !== undefined) throw failure;
    report(output, { id: conversationId, turn: turnIndex, result, structured, created: persist && id === undefined, schema: schema !== undefined });
  } finally {
    interrupt.dispose();
    spool?.discard();
    release?.();
    await closeMcpClients(mcp);
  }
}

/** With --schema the final message is stored as structured data. */
function withStructuredAnswer(events: ConversationEvent[], structured: unknown): ConversationEvent[] {
  const last = events.at(-1);
  if (last?.type !== 'chat_response' || !('message' in last)) return events;
  const { message: _message, ...rest } = last as { message: string; type: 'chat_response'; timestamp: string };
  return [...events.slice(0, -1), { ...rest, structured } as ConversationEvent];
}

function report(
  output: Output,
  outcome: { id: string | undefined; turn: number; result: TurnLoopResult; structured: unknown; created: boolean; schema: boolean },
): void {
  const { id, turn, result, structured } = outcome;
  if (output.json) {
    output.data({
      type: 'result',
      conversation: id ?? null,
      turn,
      usage: result.usage,
      text: result.text,
      ...(outcome.schema ? { structured } : {}),
    });
    return;
  }
  if (outcome.schema) output.line(JSON.stringify(structured));
  if (outcome.created && id !== undefined) output.note(`jp: new conversation ${id}`);
}
