import type { ChatResponseEvent } from '@jp/core';

/** The text an earlier answer is sent back as: the message, or structured output as JSON; reasoning is not sent back. */
export function responseText(event: ChatResponseEvent): string | undefined {
  if (typeof event.message === 'string') return event.message;
  if (event.structured !== undefined) return JSON.stringify(event.structured);
  return undefined;
}
