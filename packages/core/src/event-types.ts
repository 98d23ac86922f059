import type { ConversationEvent, KnownEvent, KnownEventType } from './conversation-event.ts';

/** Every known event type, once: the record makes the compiler hold the list to the schemas (`EVENT_SCHEMAS`). */
const KNOWN_TYPES: Record<KnownEventType, true> = {
  turn_start: true,
  chat_request: true,
  chat_response: true,
  tool_call_request: true,
  tool_call_response: true,
  config_delta: true,
  compaction: true,
  title: true,
  removal: true,
  model_call: true,
  branch_removal: true,
};

export const KNOWN_EVENT_TYPES = Object.keys(KNOWN_TYPES) as KnownEventType[];

export function isKnownEventType(type: string): type is KnownEventType {
  return Object.hasOwn(KNOWN_TYPES, type);
}

export function isKnownEvent(event: ConversationEvent): event is KnownEvent {
  return isKnownEventType(event.type);
}
