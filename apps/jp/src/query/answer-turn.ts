import type { ConversationEvent, ToolCallResponseEvent } from '@jp/core';
import { waitSpinner } from '../output/wait-spinner.ts';
import type { JpTool } from '../tools/jp-tool.ts';
import { mcpServerOfTool } from '../tools/mcp-tool-name.ts';
import { loadMcpTools } from '../tools/mcp-tools.ts';
import { selectTools } from '../tools/select-tools.ts';
import { DEFAULT_RETRY_POLICY } from '../turn/retry-policy.ts';
import { retryNotice } from '../turn/retry-notice.ts';
import { runTurnLoop, ToolRoundsExceeded, type TurnLoopResult } from '../turn/turn-loop.ts';
import { HandleRegistry } from '../tools/stateful/handle-registry.ts';
import { turnEndNotes } from '../tools/stateful/turn-end-notes.ts';
import { modelEvents } from './model-events.ts';
import { compactOnRefusal } from '../compaction/compact-for-query.ts';
import { declarationUrls } from '../config/attachment-declaration.ts';
import type { QuerySession } from './open-session.ts';
import type { TurnOpening } from './open-turn.ts';

/** What this turn added after its opening, and how it ended. */
export interface TurnAnswer {
  result: TurnLoopResult;
  /** The opening and the answer: every event of the turn, to be stored. */
  events: ConversationEvent[];
  /** `--schema`: the answer, checked and parsed. */
  structured: unknown;
  /** Why the query fails although the turn is kept (too many tool rounds, an answer that does not fit the schema). */
  failure: unknown;
}

/** The tools offered this turn, in a fixed order (see `selectTools`). */
export async function turnTools(session: QuerySession, events: readonly ConversationEvent[]): Promise<JpTool[]> {
  const { config, handlerContext, invocation } = session;
  const only = invocation.options.tool;
  // With --tool, only the servers of the named tools are started.
  const servers = only.length === 0 ? undefined : new Set(only.flatMap((name) => mcpServerOfTool(name, config) ?? []));
  const { tools: mcpTools, unavailable } = await loadMcpTools(config, handlerContext.mcp, servers);
  const named = new Set(servers);
  for (const [server, error] of unavailable.servers) {
    if (named.has(server)) continue; // selectTools fails the query with this error
    session.ctx.output.warn(`${error.message}; its tools are not offered (fix [mcp.${server}] in .jp/config.toml, or set mcp.${server}.tools = false)`);
  }
  return selectTools({ config, events, mcpTools, unavailable, only, without: invocation.options.noTool });
}

/** How the provider is asked, apart from the events and tools. */
export function providerRequest(session: QuerySession) {
  const { config, model, invocation } = session;
  const { reasoning } = config.assistant;
  return {
    model,
    system: config.assistant.system_prompt,
    maxTokens: config.assistant.max_tokens,
    schema: invocation.schema,
    reasoning: typeof reasoning === 'object' ? { budgetTokens: reasoning.budget_tokens } : reasoning,
    showReasoning: invocation.options.showReasoning === true || config.assistant.show_reasoning,
    modelInfo: session.modelInfo,
  };
}

/** What the model is sent of the events, for this session (`modelEvents`). */
export function forModel(session: QuerySession): (events: readonly ConversationEvent[]) => ConversationEvent[] {
  const { enabled, min_bytes: minBytes } = session.config.conversation.deduplication;
  const how = { provider: session.provider, content: session.content, deduplication: { enabled, minBytes }, texts: new Map<string, string>() };
  return (events) => modelEvents(events, how);
}

/**
 * Runs the turn: the model, the tools it calls, the model again, until it answers. A model that
 * never stops calling tools keeps what it did and fails the query; with `--schema`, the answer
 * is checked and stored as structured data.
 */
export async function answerTurn(session: QuerySession, turn: TurnOpening): Promise<TurnAnswer> {
  const { ctx, config, invocation, content } = session;
  const { output } = ctx;
  const events = [...session.history, ...turn.events];
  const tools = await turnTools(session, events);
  let result: TurnLoopResult;
  let failure: unknown;
  const handles = new HandleRegistry(config.assistant.max_tool_handles, session.signal);
  try {
    result = await runTurnLoop({
      provider: session.provider,
      request: providerRequest(session),
      events,
      tools,
      toolContext: {
        workspaceRoot: ctx.workspace.root,
        declarations: declarationUrls(config.conversation.attachments),
        mcpServerOfTool: (tool) => mcpServerOfTool(tool, config),
        registry: session.registry,
        handlerContext: session.handlerContext,
        output,
        interactive: Boolean(process.stdin.isTTY && process.stderr.isTTY),
        allowTools: invocation.options.allowTools === true || config.assistant.allow_tools,
        prompt: (fn) => fn(),
        approvedForTurn: new Set<string>(),
        handles,
      },
      output: invocation.schema !== undefined && !output.json ? output.silenced() : output,
      retry: { ...DEFAULT_RETRY_POLICY, maxRetries: config.assistant.request.max_retries },
      notice: retryNotice(output, { verbose: ctx.globals.verbose }),
      waiting: waitSpinner(output, config.assistant.model ?? session.model),
      maxRounds: config.assistant.max_tool_rounds,
      showReasoning: invocation.options.showReasoning === true || config.assistant.show_reasoning,
      render: config.style.render,
      signal: session.signal,
      forModel: forModel(session),
      keep: (response) => content.stageEvents([response])[0] as ToolCallResponseEvent,
      tooLong: compactOnRefusal(session),
    });
  } catch (error) {
    if (session.signal.aborted) throw session.signal.reason;
    if (!(error instanceof ToolRoundsExceeded)) {
      await handles.closeAll();
      throw error;
    }
    failure = error;
    result = { events: error.events, text: '', usage: {} };
  }
  // Handles live for one query: whatever still runs is stopped, and the turn keeps a note of it.
  const closed = await handles.closeAll();
  if (closed.length > 0) result = { ...result, events: withTurnEndNotes(result.events, turnEndNotes(closed)) };
  let structured: unknown;
  if (invocation.checkAnswer !== undefined && failure === undefined) {
    try {
      structured = invocation.checkAnswer(result.text);
    } catch (error) {
      failure = error;
    }
  }
  const answer = structured === undefined ? result.events : withStructuredAnswer(result.events, structured);
  return { result, events: [...turn.events, ...answer], structured, failure };
}

/**
 * The turn-end notes go after the turn's last tool result, before the final answer: the answer
 * stays the turn's last event (structured answers, usage and readers rely on it), and every wire
 * format accepts a tool call there.
 */
function withTurnEndNotes(events: ConversationEvent[], notes: ConversationEvent[]): ConversationEvent[] {
  const at = events.findLastIndex((event) => event.type === 'tool_call_response') + 1;
  return [...events.slice(0, at), ...notes, ...events.slice(at)];
}

/** With --schema the final message is stored as structured data. */
function withStructuredAnswer(events: ConversationEvent[], structured: unknown): ConversationEvent[] {
  const last = events.at(-1);
  if (last?.type !== 'chat_response' || !('message' in last)) return events;
  const { message: _message, ...rest } = last as { message: string; type: 'chat_response'; timestamp: string };
  return [...events.slice(0, -1), { ...rest, structured } as ConversationEvent];
}
