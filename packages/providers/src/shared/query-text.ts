/**
 * The text jp sends for a turn's query, or undefined when it has none to send: an empty or
 * whitespace-only text block is refused by the vendors (a whitespace-only one when nothing else in
 * the message has content), so jp never writes one itself (RFD 031, "Text blocks").
 */
export function queryText(content: string): string | undefined {
  return content.trim() === '' ? undefined : content;
}

/**
 * What a user message holds when its turn has nothing jp can send (no text, and every resource
 * left out with a warning): one line saying so, rather than an empty message the vendor refuses.
 * Derived from the stored turn alone, so every later request repeats it byte for byte.
 */
export const NOTHING_TO_SEND = '[jp] (this turn had no text, and none of its attachments could be sent to this model)';
