import * as z from 'zod';
import { contentBlockSchemas } from './content-block.ts';
import { describeIssues } from './describe-issues.ts';
import { lazily } from './lazily.ts';
import { resourceSchemas } from './resource.ts';

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

/** The schema of each known event type, by type: some forty zod constructors (`lazily`). */
function buildEventSchemas() {
  const timestamp = z.string().min(1);
  const JsonObjectSchema = z.record(z.string(), z.unknown());

  /** Token counts; `inputTokens` counts every input token, cached or not (cache reads and writes are also given apart). */
  const usage = z.object({
    inputTokens: z.number().int().nonnegative().optional(),
    outputTokens: z.number().int().nonnegative().optional(),
    cacheReadTokens: z.number().int().nonnegative().optional(),
    cacheWriteTokens: z.number().int().nonnegative().optional(),
  });
  const responseFields = { type: z.literal('chat_response'), timestamp, usage: usage.optional() };
  const absent = z.never().optional();

  return {
    /** Opens a turn: everything up to the next `turn_start` belongs to it. */
    turn_start: z.object({ type: z.literal('turn_start'), timestamp }),
    /**
     * The user's message. `resources` are the snapshots attached at this turn; lines written
     * before resources existed have none and parse as `[]`.
     */
    chat_request: z.object({
      type: z.literal('chat_request'),
      timestamp,
      content: z.string(),
      schema: JsonObjectSchema.optional(),
      resources: z.array(resourceSchemas().resource).default([]),
    }),
    /**
     * The assistant's answer: a message, its reasoning, or structured data (with `--schema`).
     * Exactly one of the three; an event carrying two is rejected rather than silently losing one.
     */
    chat_response: z.union(
      [
        z.object({ ...responseFields, message: z.string(), reasoning: absent, structured: absent }),
        z.object({ ...responseFields, reasoning: z.string(), message: absent, structured: absent }),
        z.object({ ...responseFields, structured: z.unknown(), message: absent, reasoning: absent }),
      ],
      { error: responseError },
    ),
    tool_call_request: z.object({
      type: z.literal('tool_call_request'),
      timestamp,
      id: z.string().min(1),
      name: z.string().min(1),
      arguments: JsonObjectSchema,
    }),
    tool_call_response: z.object({
      type: z.literal('tool_call_response'),
      timestamp,
      id: z.string().min(1),
      content: z.array(contentBlockSchemas().block),
      isError: z.boolean().default(false),
    }),
    /** A change to the conversation's configuration: a partial config, merged over what came before. */
    config_delta: z.object({
      type: z.literal('config_delta'),
      timestamp,
      delta: JsonObjectSchema,
    }),
  };
}

/** The schema of each known event type, built once, on first use. */
export const eventSchemas = lazily(buildEventSchemas);
type EventSchemas = ReturnType<typeof buildEventSchemas>;

export type TurnStartEvent = z.infer<EventSchemas['turn_start']>;
export type ChatRequestEvent = z.output<EventSchemas['chat_request']>;
export type ChatResponseEvent = z.infer<EventSchemas['chat_response']>;
export type Usage = NonNullable<ChatResponseEvent['usage']>;
export type ToolCallRequestEvent = z.infer<EventSchemas['tool_call_request']>;
export type ToolCallResponseEvent = z.output<EventSchemas['tool_call_response']>;
export type ConfigDeltaEvent = z.infer<EventSchemas['config_delta']>;

export type KnownEventType = keyof EventSchemas;
/** Every known type, once: the record makes the compiler check the list against the schemas. */
const KNOWN_TYPES: Record<KnownEventType, true> = {
  turn_start: true,
  chat_request: true,
  chat_response: true,
  tool_call_request: true,
  tool_call_response: true,
  config_delta: true,
};
export const KNOWN_EVENT_TYPES = Object.keys(KNOWN_TYPES) as KnownEventType[];

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
  | ConfigDeltaEvent;

export type ConversationEvent = KnownEvent | UnknownEvent;

export function isKnownEventType(type: string): type is KnownEventType {
  return Object.hasOwn(KNOWN_TYPES, type);
}

export function isKnownEvent(event: ConversationEvent): event is KnownEvent {
  return isKnownEventType(event.type);
}

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
  const parsed = eventSchemas()[type].safeParse(json);
  if (!parsed.success) {
    return { success: false, error: `invalid ${type} event: ${describeIssues(parsed.error.issues)}` };
  }
  return { success: true, event: parsed.data as KnownEvent };
}

/** The JSON form of an event: blobs as base64, empty `resources` left out. */
export function eventToJson(event: ConversationEvent): Record<string, unknown> {
  if (!isKnownEvent(event)) return { ...event };
  const json = z.encode(eventSchemas()[event.type] as z.ZodType, event) as Record<string, unknown>;
  if (event.type === 'chat_request' && Array.isArray(json.resources) && json.resources.length === 0) {
    delete json.resources;
  }
  return json;
}

/** One line of `events.jsonl`, without the newline. */
export function serializeEvent(event: ConversationEvent): string {
  return JSON.stringify(eventToJson(event));
}
