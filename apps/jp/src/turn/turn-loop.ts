import { JpError, ProviderError } from '@jp/core';
import { now } from '../clock.ts';
import type { ContentBlock, ConversationEvent, ModelCallEvent, ToolCallResponseEvent, Usage } from '@jp/core';
import type { CallRecord, Provider, ProviderRequest, ToolDefinition } from '@jp/providers';
import type { Output } from '../output/output.ts';
import type { WaitIndicator } from '../output/wait-spinner.ts';
import { errorResult, type JpTool, type ToolResult, type ToolRunContext } from '../tools/jp-tool.ts';
import { checkToolArguments } from '../tools/check-tool-arguments.ts';
import { confirmToolRun } from '../tools/confirm-tool-run.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { RetryNotice } from './retry-notice.ts';
import { runTurn, type ToolCall } from './run-turn.ts';

/** The model kept calling tools past `assistant.max_tool_rounds`: the turn so far is kept, exit 1. */
export class ToolRoundsExceeded extends JpError {
  override name = 'ToolRoundsExceeded';
  constructor(
    readonly rounds: number,
    readonly events: ConversationEvent[],
  ) {
    super(`the model was still calling tools after ${rounds} rounds; stopped (raise assistant.max_tool_rounds to allow more)`, {
      code: 'too_many_tool_rounds',
    });
  }
}

export interface TurnLoopResult {
  /** Everything this turn added after the user's request: answers, tool calls and their results. */
  events: ConversationEvent[];
  /** The final answer's text. */
  text: string;
  /** Summed over every model call of the turn. */
  usage: Usage;
  /** `drop_block` when a prefix-mismatch refusal made the turn ask for it (to be kept for the conversation). */
  thinkingBinding?: 'drop_block' | undefined;
}

function addUsage(total: Usage, more: Usage): Usage {
  const out: Usage = { ...total };
  for (const key of ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const) {
    if (more[key] !== undefined) out[key] = (out[key] ?? 0) + more[key];
  }
  return out;
}

/** Serialises prompts: tools run in parallel, but only one may talk to the terminal at a time. */
function serialQueue(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const next = tail.then(fn, fn);
    tail = next.catch(() => undefined);
    return next;
  };
}

async function executeCall(call: ToolCall, tools: ReadonlyMap<string, JpTool>, ctx: ToolRunContext, refused?: ReadonlyMap<string, string>): Promise<ToolResult> {
  const tool = tools.get(call.name);
  if (tool === undefined) {
    const why = refused?.get(call.name);
    if (why !== undefined) return errorResult(`${call.name} is not available in this turn (${why}); available: ${[...tools.keys()].join(', ') || 'none'}`);
    return errorResult(`unknown tool ${call.name}; available: ${[...tools.keys()].join(', ') || 'none'}`);
  }
  const wrong = tool.precheck?.(call.arguments);
  if (wrong !== undefined) return errorResult(wrong);
  const invalid = await checkToolArguments(tool.definition, call.arguments);
  if (invalid !== undefined) return errorResult(`invalid arguments for ${call.name}: ${invalid}`);
  if (tool.run === 'ask' && !ctx.allowTools && (tool.asks?.(call.arguments) ?? true)) {
    const allowed = await confirmToolRun(call, ctx);
    if (allowed !== true) return errorResult(allowed);
  }
  try {
    return await tool.call(call.arguments, ctx);
  } catch (error) {
    return errorResult(`tool ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * A turn: call the model; when it asks for tools, run them (concurrently), record the calls and
 * results, and call it again — until an answer without tool calls, or `maxRounds` model calls.
 */
export async function runTurnLoop(options: {
  provider: Provider;
  /** The request without events and tools; both are filled in each round. */
  request: Omit<ProviderRequest, 'events' | 'tools'>;
  /** The conversation before this turn plus this turn's opening events (start, delta, request). */
  events: readonly ConversationEvent[];
  /** The tools that can run. */
  tools: readonly JpTool[];
  /** What the model is offered, when not the runnable tools' definitions: the conversation's fixed tools (issue V). */
  offered?: readonly ToolDefinition[] | undefined;
  /** Offered tools that cannot run this turn, with why: their calls get an error result. */
  refused?: ReadonlyMap<string, string> | undefined;
  toolContext: Omit<ToolRunContext, 'events'>;
  output: Output;
  retry: RetryPolicy;
  /** How retries are told (`retryNotice`). */
  notice?: RetryNotice | undefined;
  /** Shown while each model call has sent its request and nothing came yet (`waitSpinner`). */
  waiting?: WaitIndicator | undefined;
  maxRounds: number;
  showReasoning?: boolean;
  /** Render answers as Markdown where the output allows it. */
  render?: boolean;
  signal?: AbortSignal | undefined;
  /** What the model is sent of the events, before each call (deduplicated, content resolved); absent: the events. */
  forModel?: (events: readonly ConversationEvent[]) => ConversationEvent[];
  /** A tool result as the conversation keeps it (its content staged); absent: as the tool gave it. */
  keep?: (event: ToolCallResponseEvent) => ToolCallResponseEvent;
  /**
   * A model call refused as too long for the model: returns events that make room (a compaction,
   * RFD 027), and the call is made again in the same round — the turn's tool calls so far are kept,
   * not run again — or throws the query's error. Absent: the refusal ends the turn.
   */
  tooLong?: (refusal: ProviderError) => Promise<readonly ConversationEvent[]>;
  /** Each model call's record as it is stored (issue V), for the caller to report. */
  onCall?: (event: ModelCallEvent) => void;
}): Promise<TurnLoopResult> {
  const tools = new Map(options.tools.map((tool) => [tool.definition.name, tool]));
  const definitions = options.offered ?? options.tools.map((tool) => tool.definition);
  const added: ConversationEvent[] = [];
  const prompt = serialQueue();
  let usage: Usage = {};
  let base = options.events;
  let binding = options.request.thinkingBinding;
  for (let round = 1; round <= options.maxRounds; round++) {
    let events = [...base, ...added];
    let answer: Awaited<ReturnType<typeof runTurn>>;
    for (;;) {
      try {
        answer = await runTurn({
          provider: options.provider,
          request: {
            ...options.request,
            ...(binding === undefined ? {} : { thinkingBinding: binding }),
            previousResponseId: previousCallId(events, options.provider.id),
            events: options.forModel?.(events) ?? events,
            tools: definitions.length > 0 ? definitions : undefined,
          },
          output: options.output,
          retry: options.retry,
          notice: options.notice,
          waiting: options.waiting,
          showReasoning: options.showReasoning,
          render: options.render,
          signal: options.signal,
        });
        break;
      } catch (error) {
        // A preserved-thinking model that finds stored thinking bound to another prefix: the API's
        // documented remedy is to retry asking it to drop such blocks, and to keep asking (issue V).
        if (binding === undefined && isPrefixMismatch(error) && options.request.modelInfo?.prefixBoundThinking === true) {
          binding = 'drop_block';
          continue;
        }
        if (options.tooLong === undefined || !(error instanceof ProviderError) || error.code !== 'context_too_long') throw error;
        base = [...base, ...(await options.tooLong(error))];
        events = [...base, ...added];
      }
    }
    usage = addUsage(usage, answer.usage);
    // The call's record goes before its answer: the answer stays the turn's last event.
    if (options.provider.id !== 'echo') {
      const call = modelCall(options.provider.id, options.request.model, answer);
      added.push(call);
      options.onCall?.(call);
    }
    // Sums over the turn's calls say what it cost; the last call's input says how long the context is.
    if (answer.usage.inputTokens !== undefined) usage.lastInputTokens = answer.usage.inputTokens;
    added.push(...answer.events);
    if (answer.toolCalls.length === 0) {
      const last = added.at(-1);
      if (last?.type === 'chat_response' && Object.keys(usage).length > 0) added[added.length - 1] = { ...last, usage };
      return { events: added, text: answer.text, usage, thinkingBinding: binding };
    }
    const ctx: ToolRunContext = { ...options.toolContext, events: [...events, ...answer.events], prompt, signal: options.signal };
    for (const call of answer.toolCalls) options.output.note(`jp: running tool ${call.name}`);
    const results = await Promise.all(answer.toolCalls.map((call) => executeCall(call, tools, ctx, options.refused)));
    const timestamp = now().toISOString();
    answer.toolCalls.forEach((call, i) => {
      const result = results[i]!;
      const response: ToolCallResponseEvent = { type: 'tool_call_response', timestamp, id: call.id, content: result.content as ContentBlock[], isError: result.isError };
      if (result._meta !== undefined) response._meta = result._meta;
      added.push(options.keep?.(response) ?? response);
      if (options.output.json) options.output.data({ type: 'tool_result', id: call.id, name: call.name, isError: result.isError });
    });
  }
  throw new ToolRoundsExceeded(options.maxRounds, added);
}

/** The id of the newest response from `provider` in the stream, or null when it has none yet. */
function previousCallId(events: readonly ConversationEvent[], provider: string): string | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === 'model_call' && (event as ModelCallEvent).provider === provider) return (event as ModelCallEvent).id ?? null;
  }
  return null;
}

/** Anthropic's 400 for a thinking block whose prefix changed (preserved-thinking#mismatch-behavior). */
function isPrefixMismatch(error: unknown): boolean {
  return error instanceof ProviderError && error.code === 'bad_request' && /bound to a different conversation/.test(error.message);
}

/** One call's record: who answered, its id, its usage, and what the provider said of the request. */
function modelCall(provider: string, model: string, answer: { usage: Usage; call?: CallRecord | undefined }): ModelCallEvent {
  const call = answer.call ?? {};
  const usage = Object.fromEntries(Object.entries(answer.usage).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  return {
    type: 'model_call',
    timestamp: now().toISOString(),
    provider,
    model,
    ...(call.id === undefined ? {} : { id: call.id }),
    ...(Object.keys(usage).length === 0 ? {} : { usage }),
    ...(call.cacheMiss === undefined ? {} : { cache_miss: call.cacheMiss }),
    ...(call.dropped === undefined ? {} : { dropped: call.dropped }),
  };
}
