import type { ChatRequestEvent, ConversationEvent, ModelCallEvent, RequestFrame, ToolCallResponseEvent } from '@jp/core';
import { describeModelCall } from '../conversation/describe-model-call.ts';
import { waitSpinner } from '../output/wait-spinner.ts';
import type { JpTool } from '../tools/jp-tool.ts';
import { mcpServerOfTool } from '../tools/mcp-tool-name.ts';
import { loadMcpTools } from '../tools/mcp-tools.ts';
import { selectTools } from '../tools/select-tools.ts';
import { frameTurn, type FramedTurn } from '../tools/request-frame.ts';
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

/** This turn's tools: the conversation's frame (what is sent, issue V) and the tools that can run. */
export interface TurnTools {
  framed: FramedTurn;
  /** The framed tools that can run this turn. */
  runnable: JpTool[];
}

/** The tools of this turn, in a fixed order (see `selectTools`), against the conversation's frame (`frameTurn`). */
export async function turnTools(session: QuerySession, events: readonly ConversationEvent[]): Promise<TurnTools> {
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
  const { all, offered } = selectTools({ config, events, mcpTools, unavailable, only, without: invocation.options.noTool });
  const missing = (name: string) => {
    const server = mcpServerOfTool(name, config);
    if (servers !== undefined && server !== undefined && !servers.has(server)) return 'not offered in this query';
    return unavailable.tools.get(name) ?? (server === undefined || !unavailable.servers.has(server) ? undefined : `its MCP server ${server} did not start`);
  };
  const framed = frameTurn({ history: events, system: config.assistant.system_prompt, all, offered, missing });
  if (framed.unframed.length > 0) {
    session.ctx.output.warn(`not offered, since this conversation's tools were fixed at its first turn (so its prompt cache keeps hitting): ${framed.unframed.join(', ')}; start a new conversation, or fork with --no-turns, to use them`);
  }
  const inFrame = new Set(framed.frame.tools.map((tool) => tool.name));
  return { framed, runnable: offered.filter((tool) => inFrame.has(tool.definition.name)) };
}

/**
 * Whether a preserved-thinking model is asked to drop thinking whose prefix changed (issue V): once
 * the conversation chose it, or when its stored history already breaks a prefix — thinking stored
 * before the conversation's tools and system prompt were fixed (a conversation from before this
 * rule) was made under requests that differ from what is sent now.
 */
export function thinkingBinding(session: QuerySession, events: readonly ConversationEvent[]): 'drop_block' | undefined {
  if (session.modelInfo?.prefixBoundThinking !== true) return undefined;
  let framed = false;
  for (const event of events) {
    if (event.type === 'chat_request') {
      const request = event as ChatRequestEvent;
      if (request.thinking_binding === 'drop_block') return 'drop_block';
      if (request.frame !== undefined) framed = true;
    } else if (!framed && event.type === 'chat_response' && (event as { opaque?: { provider?: string } }).opaque?.provider === 'anthropic') {
      return 'drop_block';
    }
  }
  return undefined;
}

/** How the provider is asked, apart from the events and tools: the system prompt is the conversation's frame's. */
export function providerRequest(session: QuerySession, frame: RequestFrame, binding?: 'drop_block') {
  const { model, invocation, config } = session;
  const { reasoning } = config.assistant;
  return {
    model,
    system: frame.system,
    maxTokens: config.assistant.max_tokens,
    schema: invocation.schema,
    reasoning: typeof reasoning === 'object' ? { budgetTokens: reasoning.budget_tokens } : reasoning,
    showReasoning: invocation.options.showReasoning === true || config.assistant.show_reasoning,
    modelInfo: session.modelInfo,
    ...(binding === undefined ? {} : { thinkingBinding: binding }),
  };
}

/** The turn's opening events with what the frame adds to its `chat_request` (the frame itself, notes). */
export function framedOpening(opening: readonly ConversationEvent[], framed: FramedTurn): ConversationEvent[] {
  if (Object.keys(framed.request).length === 0) return [...opening];
  return opening.map((event) => (event.type === 'chat_request' ? ({ ...event, ...framed.request } as ConversationEvent) : event));
}

/** What the model is sent of the events, for this session (`modelEvents`). */
export function forModel(session: QuerySession): (events: readonly ConversationEvent[]) => ConversationEvent[] {
  const { enabled, min_bytes: minBytes } = session.config.conversation.deduplication;
  const how = {
    provider: session.provider,
    content: session.content,
    deduplication: { enabled, minBytes },
    texts: new Map<string, string>(),
    preservedThinking: session.modelInfo?.prefixBoundThinking === true,
  };
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
  const { framed, runnable } = await turnTools(session, [...session.history, ...turn.events]);
  let opening = framedOpening(turn.events, framed);
  const events = [...session.history, ...opening];
  const binding = thinkingBinding(session, events);
  let result: TurnLoopResult;
  let failure: unknown;
  const handles = new HandleRegistry(config.assistant.max_tool_handles, session.signal);
  try {
    result = await runTurnLoop({
      provider: session.provider,
      request: providerRequest(session, framed.frame, binding),
      events,
      tools: runnable,
      offered: framed.frame.tools,
      refused: framed.refused,
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
      onCall: (call) => reportCall(session, call),
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
  // A conversation that needed drop_block keeps it: the choice is stored with this turn (issue V).
  if (result.thinkingBinding === 'drop_block' && binding === undefined) {
    opening = opening.map((event) => (event.type === 'chat_request' ? ({ ...event, thinking_binding: 'drop_block' } as ConversationEvent) : event));
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
  return { result, events: [...opening, ...answer], structured, failure };
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

/** A model call as the query reports it: a JSON line with -F json; with -v, what the provider said of it. */
function reportCall(session: QuerySession, call: ModelCallEvent): void {
  const { output, globals } = session.ctx;
  if (output.json) output.data(call);
  else if (globals.verbose) for (const note of describeModelCall(call)) output.note(`jp: ${note}`);
}
