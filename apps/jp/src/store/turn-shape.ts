import { isKnownEventType } from '@jp/core';
import type { JpError } from '@jp/core';

/** A stored line as the shape check needs it: its type, 1-based number and turn (-1 before the first). */
export interface ShapedLine {
  json: unknown;
  line: number;
  turn: number;
}

/**
 * Checks where events of a type this jp does not know stand (RFD 010, "Unknown events"). A turn
 * runs from a `turn_start` to the next and holds exactly one `chat_request`; the events before
 * the first `turn_start` hold none. An unknown event in a part of the stream that holds the wrong
 * number of requests — a turn with none or with two, the events before the first turn with one —
 * stands where a `turn_start` or a `chat_request` should: the file is damaged at that line, and
 * `damaged` makes the error. Any other unknown event fits between the known ones, as a newer jp's
 * extra event would: it is kept, and one warning says so.
 */
export function checkTurnShapes(lines: readonly ShapedLine[], displayName: string, damaged: (line: number, why: string) => JpError): string[] {
  const parts = new Map<number, { requests: ShapedLine[]; unknown: ShapedLine[] }>();
  const unknownTypes = new Set<string>();
  let unknownCount = 0;
  for (const stored of lines) {
    const type = (stored.json as { type?: unknown } | null)?.type;
    if (typeof type !== 'string' || (type !== 'chat_request' && isKnownEventType(type))) continue;
    let part = parts.get(stored.turn);
    if (part === undefined) parts.set(stored.turn, (part = { requests: [], unknown: [] }));
    if (type === 'chat_request') {
      part.requests.push(stored);
    } else if (type !== '') {
      part.unknown.push(stored);
      unknownTypes.add(type);
      unknownCount++;
    }
  }
  for (const [turn, { requests, unknown }] of parts) {
    if (unknown.length === 0) continue;
    const expected = turn < 0 ? 0 : 1;
    if (requests.length === expected) continue;
    const typeOf = (stored: ShapedLine) => JSON.stringify((stored.json as { type: string }).type);
    if (requests.length < expected) {
      const first = unknown[0]!;
      throw damaged(first.line, `an event of unknown type ${typeOf(first)} in turn ${turn}, which has no chat_request: it stands where the request should`);
    }
    // One request too many: the unknown event before it stands where that request's turn_start should.
    const extra = requests[expected]!;
    const before = unknown.filter((stored) => stored.line < extra.line).at(-1) ?? unknown[0]!;
    const where = turn < 0 ? 'before the first turn_start' : `in turn ${turn}, which has a chat_request already`;
    throw damaged(before.line, `an event of unknown type ${typeOf(before)} followed by a chat_request ${where}: it stands where a turn_start should`);
  }
  if (unknownCount === 0) return [];
  const first = lines.find((stored) => unknownTypes.has((stored.json as { type?: unknown } | null)?.type as string))!;
  const types = [...unknownTypes].map((type) => JSON.stringify(type)).join(', ');
  const events = unknownCount === 1 ? 'an event' : `${unknownCount} events`;
  return [`${displayName}: kept ${events} of a type this jp does not know (${types}, first at line ${first.line}), as a newer jp may have written; ${unknownCount === 1 ? 'it is' : 'they are'} not sent to the model`];
}
