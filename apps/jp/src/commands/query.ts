import { UsageError } from '@jp/core/errors';
import type { ChatRequestEvent, ConversationEvent, Resource, Usage } from '@jp/core';
import type { HandlerContext } from '@jp/attachments';
import type { GlobalOptions } from '../cli/global-options.ts';
import { workspaceContext } from '../cli/command-context.ts';
import { readCfgArgs, readFileLayers, resolveConfig, validateLayer } from '../config/load-config.ts';
import { mergeConfig, mergeLayers, type ConfigLayer } from '../config/merge-config.ts';
import { conversationLayers } from '../conversation/conversation-config.ts';
import { selectConversation } from '../conversation/select-conversation.ts';
import { readQueryText } from '../query/read-query-text.ts';
import { closeMcpClients } from '../mcp/mcp-client-pool.ts';
import { createAttachmentRegistry, handlerContext } from '../resolution/attachment-runtime.ts';
import { planTurnAttachments, resolvePlan, urisInStream } from '../resolution/resolve-turn-attachments.ts';
import { resolveProgress } from '../output/terminal-progress.ts';
import { DEFAULT_RETRY_POLICY } from '../turn/retry-policy.ts';
import { runTurn } from '../turn/run-turn.ts';
import { selectProvider } from '../turn/select-provider.ts';

export interface QueryOptions {
  new?: boolean;
  id?: string;
  attach: string[];
  model?: string;
  title?: string;
}

function defaultTitle(query: string): string | undefined {
  const first = query.split('\n', 1)[0]!.trim();
  if (first === '') return undefined;
  return first.length > 60 ? `${first.slice(0, 57)}...` : first;
}

export async function queryCommand(globals: GlobalOptions, textArgs: string[], options: QueryOptions): Promise<void> {
  const ctx = workspaceContext(globals);
  const { store, output } = ctx;
  if (options.new && options.id !== undefined) throw new UsageError('--new and --id exclude each other', { code: 'usage_error' });

  // Everything the user typed is checked before anything is read or locked.
  let invocation: ConfigLayer = readCfgArgs(globals.cfg);
  if (options.model !== undefined) invocation = mergeConfig(invocation, validateLayer({ assistant: { model: options.model } }, '--model'));
  const fileLayers = readFileLayers(ctx.workspace.jpDir);
  const id = options.new ? undefined : selectConversation(store, options.id, 'start one with `jp query --new`, or pass --id');
  const query = await readQueryText(textArgs);
  if (query === '' && options.attach.length === 0) {
    throw new UsageError('nothing to ask: give the query as arguments or on stdin', { code: 'empty_query' });
  }

  const lockTimeout = resolveConfig([...fileLayers, invocation]).conversation.lock_timeout_secs;
  const release = id === undefined ? undefined : await store.lock(id, lockTimeout * 1000);
  let mcp: HandlerContext['mcp'];
  try {
    const baseConfig = id === undefined ? mergeLayers(fileLayers) : store.baseConfig(id);
    const loaded = id === undefined ? { events: [], warnings: [] } : await store.events(id);
    for (const warning of loaded.warnings) output.warn(warning);
    const history: ConversationEvent[] = loaded.events;
    const before = resolveConfig(conversationLayers(baseConfig, history), 'the conversation configuration');
    const config = resolveConfig([...conversationLayers(baseConfig, history), invocation], 'the configuration');
    const { provider, model } = selectProvider(config);

    const registry = createAttachmentRegistry();
    const hctx = handlerContext(ctx.workspace, ctx.cwd, config, output);
    mcp = hctx.mcp;
    const attached: string[] = [];
    for (const input of options.attach) attached.push(await registry.validate(input, hctx));
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
      resources = await resolvePlan(registry, plan, { ...hctx, progress, askOversize: (await import('../output/ask-oversize.ts')).terminalAskOversize(progress) });
    } finally {
      progress?.done();
    }

    const now = new Date().toISOString();
    const turnIndex = history.filter((event) => event.type === 'turn_start').length;
    let delta: ConfigLayer = JSON.stringify(before) === JSON.stringify(config) ? {} : invocation;
    if (plan.newDeclarations.length > 0) {
      delta = mergeConfig(delta, { conversation: { attachments: [...config.conversation.attachments, ...plan.newDeclarations] } });
    }
    const request: ChatRequestEvent = { type: 'chat_request', timestamp: now, content: query, resources };
    const turnEvents: ConversationEvent[] = [
      { type: 'turn_start', timestamp: now },
      ...(Object.keys(delta).length > 0 ? [{ type: 'config_delta' as const, timestamp: now, delta }] : []),
      request,
    ];

    const answer = await runTurn({
      provider,
      request: {
        model,
        events: [...history, ...turnEvents],
        system: config.assistant.system_prompt,
        maxTokens: config.assistant.max_tokens,
      },
      output,
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: config.assistant.request.max_retries },
    });
    const all = [...turnEvents, ...answer.events];

    let conversationId: string;
    if (id === undefined) {
      conversationId = await store.create({ baseConfig, events: all, title: options.title ?? defaultTitle(query), turnCount: 1 });
      store.setActive(conversationId);
    } else {
      await store.append(id, all);
      const metadata = store.metadata(id);
      store.writeMetadata({ ...metadata, turnCount: turnIndex + 1, lastActivityAt: new Date().toISOString() });
      conversationId = id;
    }
    finish(output, conversationId, turnIndex, answer.usage, answer.text, id === undefined);
  } finally {
    release?.();
    await closeMcpClients(mcp);
  }
}

function finish(output: import('../output/output.ts').Output, id: string, turn: number, usage: Usage, text: string, created: boolean): void {
  if (output.json) {
    output.data({ type: 'result', conversation: id, turn, usage, text });
  } else if (created) {
    output.note(`jp: new conversation ${id}`);
  }
}
