// What a streamed answer is stored as, the way the app's run-turn stores it: its reasoning (text
// and the first provider's opaque items) as one event, then the message when there is text, then
// the tool calls. Used to replay answers to a strict stand-in across turns.
import type { ConversationEvent } from '@jp/core';
import type { StreamEvent } from '../provider.ts';

const timestamp = '2026-12-02T00:00:00.000Z';

export function answerEvents(events: readonly StreamEvent[]): ConversationEvent[] {
  let reasoning = '';
  let text = '';
  const opaque: Array<{ provider: string; item: Record<string, unknown> }> = [];
  const calls: ConversationEvent[] = [];
  for (const event of events) {
    if (event.type === 'reasoning-delta') reasoning += event.text;
    else if (event.type === 'reasoning-opaque') opaque.push(event);
    else if (event.type === 'text-delta') text += event.text;
    else if (event.type === 'tool-call') calls.push({ type: 'tool_call_request', timestamp, id: event.id, name: event.name, arguments: event.arguments });
  }
  const stored: ConversationEvent[] = [];
  if (reasoning !== '' || opaque.length > 0) {
    const provider = opaque[0]?.provider;
    const items = opaque.filter((entry) => entry.provider === provider).map((entry) => entry.item);
    stored.push({ type: 'chat_response', timestamp, reasoning, ...(provider === undefined ? {} : { opaque: { provider, items } }) } as ConversationEvent);
  }
  if (text !== '' || calls.length === 0) stored.push({ type: 'chat_response', timestamp, message: text });
  return [...stored, ...calls];
}
