import { JpError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { checkTurnShapes, type ShapedLine } from './turn-shape.ts';

/** Lines of these types, numbered from 1 and grouped into turns as `readStoredLines` does. */
function stream(...types: string[]): ShapedLine[] {
  let turn = -1;
  return types.map((type, k) => {
    if (type === 'turn_start') turn++;
    return { json: { type, timestamp: 't' }, line: k + 1, turn };
  });
}

const damaged = (line: number, why: string) => new JpError(`line ${line}: ${why}`, { code: 'damaged_conversation' });
const check = (lines: ShapedLine[]) => checkTurnShapes(lines, 'events.jsonl', damaged);
const TURN = ['turn_start', 'chat_request', 'chat_response'];

describe('where unknown events stand', () => {
  it('says nothing of a stream of known events', () => {
    expect(check(stream('config_delta', ...TURN, 'turn_start', 'config_delta', 'chat_request', 'tool_call_request', 'tool_call_response', 'chat_response'))).toEqual([]);
  });

  it('keeps unknown events after a turn’s request or before the first turn, with one warning', () => {
    const lines = stream('future_note', ...TURN, 'future_note', 'turn_start', 'chat_request', 'future_other', 'chat_response');
    expect(check(lines)).toEqual([
      'events.jsonl: kept 3 events of a type this jp does not know ("future_note", "future_other", first at line 1), as a newer jp may have written; they are not sent to the model',
    ]);
  });

  it('keeps an unknown event between a turn_start and its request when the request comes', () => {
    expect(check(stream('turn_start', 'future_plan', 'chat_request', 'chat_response'))).toHaveLength(1);
  });

  it('takes a turn without its request, with an unknown event in it, as damage at that line (a renamed chat_request)', () => {
    expect(() => check(stream(...TURN, 'turn_start', 'chat_requestx', 'chat_response'))).toThrow(
      'line 5: an event of unknown type "chat_requestx" in turn 1, which has no chat_request: it stands where the request should',
    );
  });

  it('takes a second request in a turn after an unknown event as damage at that line (a renamed turn_start)', () => {
    expect(() => check(stream(...TURN, 'future_note', 'turn_startx', 'chat_request', 'chat_response'))).toThrow(
      'line 5: an event of unknown type "turn_startx" followed by a chat_request in turn 0, which has a chat_request already: it stands where a turn_start should',
    );
    expect(() => check(stream('turn_startx', 'chat_request', 'chat_response', ...TURN))).toThrow(
      'line 1: an event of unknown type "turn_startx" followed by a chat_request before the first turn_start: it stands where a turn_start should',
    );
  });

  it('leaves a turn without a request but without unknown events to the other checks', () => {
    expect(check(stream(...TURN, 'turn_start', 'chat_response'))).toEqual([]);
  });
});
