/** The fields of an event the last answer is read from: stored JSON or a parsed event alike. */
interface AnswerPart {
  type: string;
  message?: unknown;
}

/** The last turn's answer text, as stored: its `chat_response` messages, joined. */
export function lastAnswer(history: readonly AnswerPart[]): string | undefined {
  let start = -1;
  history.forEach((event, index) => {
    if (event.type === 'turn_start') start = index;
  });
  if (start === -1) return undefined;
  const parts: string[] = [];
  for (const event of history.slice(start)) {
    if (event.type === 'chat_response' && typeof event.message === 'string') parts.push(event.message);
  }
  return parts.length === 0 ? undefined : parts.join('');
}
