import type { ConversationEvent } from '@jp/core';
import type { ClosedHandle } from './handle-registry.ts';
import { handleResult } from './stateful-tool.ts';

/**
 * The final tool notes of a turn (RFD 019): for each handle jp stopped when the turn ended, an
 * `abort` call on jp's behalf and its result (the last output, status `stopped`), stored like any
 * tool call so the next turn, a replay and a fork all see how the program ended.
 */
export function turnEndNotes(closed: readonly ClosedHandle[], now = new Date()): ConversationEvent[] {
  const timestamp = now.toISOString();
  return closed.flatMap(({ tool, id, reply, wasRunning }, index) => {
    const callId = `jp_turn_end_${now.getTime()}_${index}`;
    const result = handleResult(tool, id, reply);
    return [
      { type: 'tool_call_request', timestamp, id: callId, name: tool, arguments: { action: 'abort', id } },
      {
        type: 'tool_call_response',
        timestamp,
        id: callId,
        content: [{ type: 'text', text: wasRunning ? `jp stopped handle ${id} at the end of the turn` : `handle ${id} had ended by the end of the turn` }, ...result.content],
        isError: false,
        _meta: result._meta,
      },
    ] satisfies ConversationEvent[];
  });
}
