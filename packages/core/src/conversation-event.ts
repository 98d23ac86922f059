import * as z from 'zod';
import { SupersededMarkSchema } from './superseded-mark-schema.ts';
import { ContentBlockSchema } from './content-block.ts';
import { describeIssues } from './describe-issues.ts';
import { ResourceSchema } from './resource.ts';
import { RequestFrameSchema } from './request-frame.ts';
import { FreshnessNoticeSchema } from './freshness-notice.ts';
import { isKnownEvent, isKnownEventType } from './event-types.ts';
import { CompactionEventSchema, type CompactionEvent } from './compaction/compaction-event.ts';
import { ModelCallEventSchema, type ModelCallEvent } from './model-call-event.ts';
import { BranchRemovalEventSchema, RemovalEventSchema, TitleEventSchema, type BranchRemovalEvent, type RemovalEvent, type TitleEvent } from './record-events.ts';

/** The three kinds of answer a chat_response carries, exactly one of them. */
const RESPONSE_KINDS = ['message', 'reasoning', 'structured'] as const;

/**
 * The union's error: with exactly one of the three fields present, the problems of that variant
 * (e.g. `usage.outputTokens: …`); otherwise what the shape has to be.
 */
function responseError(issue: z.core.$ZodRawIssue): string {
  const input = (typeof issue.input === 'object' && issue.input !== null ? issue.input : {}) as Record<string, unknown>;
  const present = RESPONSE_KINDS.filter((kind) => input[kind] !== undefined);
  const branch = issue.code === 'invalid_union' && present.length === 1 ? issue.errors[RESPONSE_KINDS.indexOf(present[0]!)] : undefined;
  if (branch !== undefined && branch.length > 0) return describeIssues(branch);
  return 'a chat_response has exactly one of "message" (string), "reasoning" (string) or "structured"';
}

const timestamp = z.string().min(1);
const JsonObjectSchema = z.record(z.string(), z.unknown());

/** Token counts; `inputTokens` counts every input token, cached or not (cache reads and writes are also given apart). */
export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  cacheReadTokens: z.number().int().nonnegative().optional(),
  cacheWriteTokens: z.number().int().nonnegative().optional(),
  /** The part of `outputTokens` spent reasoning, where the vendor says (OpenAI, Gemini; RFD 028). */
  reasoningTokens: z.number().int().nonnegative().optional(),
  /**
   * The input tokens of the turn's last model call: the others are summed over the turn's calls,
   * this one measures the context the next turn starts from (RFD 027, the estimate).
   */
  lastInputTokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** Opens a turn: everything up to the next `turn_start` belongs to it. */
export const TurnStartEventSchema = z.object({
  type: z.literal('turn_start'),
  timestamp,
  /** The turn's own id, and the id of the turn it follows (null: the first): two clones' turns after one turn make a tree (RFD 029). */
  id: z.string().min(1).optional(),
  parent: z.string().min(1).nullable().optional(),
  /**
   * How this turn was run (RFD 014, what is stored): the model that answered it, whoever chose it
   * (`--model`, the files, a `-c`, or jp's quick-start pick), and the tools `--tool`/`--no-tool`
   * narrowed it to. A record of the turn, never a key the conversation set.
   */
  model: z.string().min(1).optional(),
  tools: z.strictObject({ only: z.array(z.string()).optional(), without: z.array(z.string()).optional() }).optional(),
});
export type TurnStartEvent = z.infer<typeof TurnStartEventSchema>;

/**
 * The user's message. `resources` are the snapshots attached at this turn; lines written before
 * resources existed have none and parse as `[]`.
 */
export const ChatRequestEventSchema = z.object({
  type: z.literal('chat_request'),
  timestamp,
  content: z.string(),
  schema: JsonObjectSchema.optional(),
  resources: z.array(ResourceSchema).default([]),
  /** Older snapshots sent as a stub from this request on (RFD 020, superseded snapshots). */
  superseded: z.array(SupersededMarkSchema).optional(),
  /** Declared attachments whose source changed since their newest snapshot (`freshness-notice.ts`). */
  notices: z.array(FreshnessNoticeSchema).optional(),
  /** The conversation's system prompt and tools, on the request that fixed them (`request-frame.ts`). */
  frame: RequestFrameSchema.optional(),
  /** jp's lines to the model about this turn: tools it cannot use now, a changed system prompt (issue V). */
  notes: z.array(z.string().min(1)).optional(),
  /** The framed tools that could not run from this turn on, when that changed (`request-frame.ts` in the app). */
  refused_tools: z.array(z.string()).optional(),
  /** The system prompt in force from this turn on, when it differs from the frame's. */
  system_prompt: z.string().optional(),
  /** From this turn on, a preserved-thinking model is asked to drop thinking bound to another prefix rather than refuse (issue V). */
  thinking_binding: z.literal('drop_block').optional(),
});
export type ChatRequestEvent = z.output<typeof ChatRequestEventSchema>;

const responseFields = { type: z.literal('chat_response'), timestamp, usage: UsageSchema.optional() };
const absent = z.never().optional();

/**
 * What a provider needs back with its reasoning (RFD 028): its own wire items, kept as given
 * (Anthropic `thinking` blocks with their `signature`, `redacted_thinking` blocks). Stored, sent
 * back only to the provider that made them, never shown.
 */
export const ReasoningOpaqueSchema = z.object({ provider: z.string(), items: z.array(JsonObjectSchema) });
export type ReasoningOpaque = z.infer<typeof ReasoningOpaqueSchema>;

/**
 * The assistant's answer: a message, its reasoning, or structured data (with `--schema`). Exactly
 * one of the three; an event carrying two is rejected rather than silently losing one.
 */
export const ChatResponseEventSchema = z.union(
  [
    z.object({ ...responseFields, message: z.string(), reasoning: absent, structured: absent }),
    z.object({ ...responseFields, reasoning: z.string(), opaque: ReasoningOpaqueSchema.optional(), message: absent, structured: absent }),
    z.object({ ...responseFields, structured: z.unknown(), message: absent, reasoning: absent }),
  ],
  { error: responseError },
);
export type ChatResponseEvent = z.infer<typeof ChatResponseEventSchema>;

export const ToolCallRequestEventSchema = z.object({
  type: z.literal('tool_call_request'),
  timestamp,
  id: z.string().min(1),
  name: z.string().min(1),
  arguments: JsonObjectSchema,
});
export type ToolCallRequestEvent = z.infer<typeof ToolCallRequestEventSchema>;

export const ToolCallResponseEventSchema = z.object({
  type: z.literal('tool_call_response'),
  timestamp,
  id: z.string().min(1),
  content: z.array(ContentBlockSchema),
  isError: z.boolean().default(false),
  /** RFD 058 metadata, e.g. `computer.jp/status` (`running` | `waiting` | `stopped`) of a stateful tool's handle. */
  _meta: JsonObjectSchema.optional(),
});
export type ToolCallResponseEvent = z.output<typeof ToolCallResponseEventSchema>;

/**
 * A change to the conversation's configuration. Without `source`, keys the conversation set itself
 * (`-c`, `--model`, attachments): a partial config merged over what came before. With
 * `source: "files"`, a record of how the workspace config file changed before this turn: `delta`
 * holds the changed keys' new values (secret values left out) and `removed` the keys the file no
 * longer has, each as its path of key segments. A record, never a key the conversation set.
 */
export const ConfigDeltaEventSchema = z.object({
  type: z.literal('config_delta'),
  timestamp,
  source: z.literal('files').optional(),
  delta: JsonObjectSchema,
  removed: z.array(z.array(z.string()).min(1)).optional(),
});
export type ConfigDeltaEvent = z.infer<typeof ConfigDeltaEventSchema>;

/** The schema of each known event type, by type. */
export const EVENT_SCHEMAS = {
  turn_start: TurnStartEventSchema,
  chat_request: ChatRequestEventSchema,
  chat_response: ChatResponseEventSchema,
  tool_call_request: ToolCallRequestEventSchema,
  tool_call_response: ToolCallResponseEventSchema,
  config_delta: ConfigDeltaEventSchema,
  compaction: CompactionEventSchema,
  title: TitleEventSchema,
  removal: RemovalEventSchema,
  model_call: ModelCallEventSchema,
  branch_removal: BranchRemovalEventSchema,
};
type EventSchemas = typeof EVENT_SCHEMAS;

export type KnownEventType = keyof EventSchemas;

/**
 * An event of a type this version does not know (written by a newer jp, or by hand). It is kept
 * field for field, so loading and saving a conversation never drops it.
 */
export interface UnknownEvent {
  type: string;
  timestamp?: string;
  [field: string]: unknown;
}

export type KnownEvent =
  | TurnStartEvent
  | ChatRequestEvent
  | ChatResponseEvent
  | ToolCallRequestEvent
  | ToolCallResponseEvent
  | ConfigDeltaEvent
  | CompactionEvent
  | TitleEvent
  | RemovalEvent
  | ModelCallEvent
  | BranchRemovalEvent;

export type ConversationEvent = KnownEvent | UnknownEvent;

export type ParseEventResult = { success: true; event: ConversationEvent } | { success: false; error: string };

/** Validates one stored event (already JSON-parsed). Unknown types pass through untouched. */
export function parseEvent(json: unknown): ParseEventResult {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { success: false, error: 'an event must be a JSON object' };
  }
  const type = (json as { type?: unknown }).type;
  if (typeof type !== 'string' || type === '') {
    return { success: false, error: 'an event needs a string "type"' };
  }
  if (!isKnownEventType(type)) {
    return { success: true, event: { ...(json as UnknownEvent) } };
  }
  const parsed = EVENT_SCHEMAS[type].safeParse(json);
  if (!parsed.success) {
    return { success: false, error: `invalid ${type} event: ${describeIssues(parsed.error.issues)}` };
  }
  return { success: true, event: parsed.data as KnownEvent };
}

/** The JSON form of an event: blobs as base64, empty `resources` left out. */
export function eventToJson(event: ConversationEvent): Record<string, unknown> {
  if (!isKnownEvent(event)) return { ...event };
  const json = z.encode(EVENT_SCHEMAS[event.type] as z.ZodType, event) as Record<string, unknown>;
  if (event.type === 'chat_request' && Array.isArray(json.resources) && json.resources.length === 0) {
    delete json.resources;
  }
  return json;
}

/** One line of `events.jsonl`, without the newline. */
export function serializeEvent(event: ConversationEvent): string {
  return JSON.stringify(eventToJson(event));
}
