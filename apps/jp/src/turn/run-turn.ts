import type { ConversationEvent, Usage } from '@jp/core';
import type { Provider, ProviderRequest } from '@jp/providers';
import type { Output } from '../output/output.ts';

export interface TurnAnswer {
  /** `chat_response` events to append (reasoning first, then the message). */
  events: ConversationEvent[];
  text: string;
  usage: Usage;
}

/**
 * One provider call: streams the answer to stdout as it arrives (NDJSON deltas with `-F json`)
 * and returns the events that record it.
 */
export async function runTurn(options: { provider: Provider; request: ProviderRequest; output: Output; signal?: AbortSignal }): Promise<TurnAnswer> {
  const { output } = options;
  let text = '';
  let reasoning = '';
  let usage: Usage = {};
  for await (const event of options.provider.stream(options.request, { signal: options.signal })) {
    switch (event.type) {
      case 'text-delta':
        text += event.text;
        if (output.json) output.data({ type: 'text_delta', text: event.text });
        else output.write(event.text);
        break;
      case 'reasoning-delta':
        reasoning += event.text;
        if (output.json) output.data({ type: 'reasoning_delta', text: event.text });
        break;
      case 'warning':
        output.warn(event.message);
        break;
      case 'finish':
        usage = event.usage;
        break;
      case 'tool-call':
        // Tools arrive with the turn loop (issue D); until then a tool call is reported, not run.
        output.warn(`the model asked for tool ${event.name}, but tools are not available yet`);
        break;
    }
  }
  if (!output.json && text !== '' && !text.endsWith('\n')) output.write('\n');
  const timestamp = new Date().toISOString();
  const events: ConversationEvent[] = [];
  if (reasoning !== '') events.push({ type: 'chat_response', timestamp, reasoning });
  events.push({ type: 'chat_response', timestamp, message: text, ...(Object.keys(usage).length > 0 ? { usage } : {}) });
  return { events, text, usage };
}
