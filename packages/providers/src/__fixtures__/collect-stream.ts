// Draining a provider stream in tests: the events it yielded, and the error it ended with (if any).
import type { StreamEvent } from '../provider.ts';

export async function collect(stream: AsyncIterable<StreamEvent>): Promise<{ events: StreamEvent[]; error: unknown }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

export const texts = (events: StreamEvent[]): string[] => events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
