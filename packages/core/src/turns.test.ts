import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEvent, type ConversationEvent } from './conversation-event.ts';
import { groupTurns } from './turns.ts';

const t = (n: number) => `2026-03-20T10:00:${String(n).padStart(2, '0')}.000Z`;

describe('groupTurns', () => {
  it('returns nothing for an empty stream', () => {
    expect(groupTurns([])).toEqual({ preamble: [], turns: [] });
  });

  it('puts config deltas before the first turn in the preamble', () => {
    const delta1: ConversationEvent = { type: 'config_delta', timestamp: t(0), delta: { assistant: { model: { id: 'echo' } } } };
    const delta2: ConversationEvent = { type: 'config_delta', timestamp: t(1), delta: { conversation: { attachments: [] } } };
    const start: ConversationEvent = { type: 'turn_start', timestamp: t(2) };
    const request: ConversationEvent = { type: 'chat_request', timestamp: t(3), content: 'hi', resources: [] };
    const { preamble, turns } = groupTurns([delta1, delta2, start, request]);
    expect(preamble).toEqual([delta1, delta2]);
    expect(turns).toHaveLength(1);
    expect(turns[0]?.events).toEqual([start, request]);
  });

  it('splits at each turn_start, numbers turns from 0, and keeps events in order', () => {
    const events: ConversationEvent[] = [
      { type: 'turn_start', timestamp: t(0) },
      { type: 'chat_request', timestamp: t(1), content: 'first', resources: [] },
      { type: 'chat_response', timestamp: t(2), message: 'one' },
      { type: 'turn_start', timestamp: t(3) },
      { type: 'config_delta', timestamp: t(4), delta: { assistant: { model: { id: 'echo' } } } },
      { type: 'chat_request', timestamp: t(5), content: 'second', resources: [] },
      { type: 'chat_response', timestamp: t(6), reasoning: 'hmm' },
      { type: 'chat_response', timestamp: t(7), message: 'two' },
      { type: 'turn_start', timestamp: t(8) },
    ];
    const { preamble, turns } = groupTurns(events);
    expect(preamble).toEqual([]);
    expect(turns.map((turn) => turn.index)).toEqual([0, 1, 2]);
    expect(turns.map((turn) => turn.events.length)).toEqual([3, 5, 1]);
    expect(turns.flatMap((turn) => turn.events)).toEqual(events);
    expect(turns[0]?.request?.content).toBe('first');
    expect(turns[1]?.request?.content).toBe('second');
    // A turn that has started but has no request yet (e.g. a crash right after turn_start).
    expect(turns[2]?.request).toBeUndefined();
  });

  it('keeps tool calls and their responses inside the turn that made them', () => {
    const events: ConversationEvent[] = [
      { type: 'turn_start', timestamp: t(0) },
      { type: 'chat_request', timestamp: t(1), content: 'read a.rs', resources: [] },
      { type: 'tool_call_request', timestamp: t(2), id: 'call_1', name: 'fs_read_file', arguments: { path: 'a.rs' } },
      {
        type: 'tool_call_response',
        timestamp: t(3),
        id: 'call_1',
        content: [{ type: 'resource', resource: { uri: 'file:///p/a.rs', text: 'fn a() {}' } }],
        isError: false,
      },
      { type: 'tool_call_request', timestamp: t(4), id: 'call_2', name: 'refresh_resource', arguments: { uri: 'external:x/y' } },
      { type: 'tool_call_response', timestamp: t(5), id: 'call_2', content: [{ type: 'text', text: 'refused' }], isError: true },
      { type: 'chat_response', timestamp: t(6), message: 'done' },
    ];
    const { turns } = groupTurns(events);
    expect(turns).toHaveLength(1);
    expect(turns[0]?.events.map((event) => event.type)).toEqual([
      'turn_start',
      'chat_request',
      'tool_call_request',
      'tool_call_response',
      'tool_call_request',
      'tool_call_response',
      'chat_response',
    ]);
  });

  it('takes the first chat_request of a turn as its request', () => {
    const { turns } = groupTurns([
      { type: 'turn_start', timestamp: t(0) },
      { type: 'chat_request', timestamp: t(1), content: 'first', resources: [] },
      { type: 'chat_request', timestamp: t(2), content: 'second', resources: [] },
    ]);
    expect(turns[0]?.request?.content).toBe('first');
    expect(turns[0]?.events).toHaveLength(3);
  });

  it('keeps unknown events where they occur', () => {
    const future: ConversationEvent = { type: 'future_thing', timestamp: t(1), payload: { nested: [1, 2] } };
    const early: ConversationEvent = { type: 'future_header', version: 2 };
    const { preamble, turns } = groupTurns([early, { type: 'turn_start', timestamp: t(0) }, future]);
    expect(preamble).toEqual([early]);
    expect(turns[0]?.events[1]).toBe(future);
  });

  it('groups the fixture conversation', () => {
    const lines = readFileSync(new URL('./__fixtures__/events.jsonl', import.meta.url), 'utf8').split('\n').filter(Boolean);
    const events = lines.map((line) => {
      const result = parseEvent(JSON.parse(line));
      if (!result.success) throw new Error(result.error);
      return result.event;
    });
    const { preamble, turns } = groupTurns(events);
    expect(preamble.map((event) => event.type)).toEqual(['config_delta']);
    expect(turns).toHaveLength(2);
    expect(turns[0]?.request?.resources).toHaveLength(3);
    expect(turns[0]?.events.filter((event) => event.type === 'tool_call_response')).toHaveLength(2);
    expect(turns[0]?.events.some((event) => event.type === 'future_thing')).toBe(true);
    expect(turns[1]?.request?.schema).toEqual({ type: 'object', properties: { fix: { type: 'string' } }, required: ['fix'] });
    expect(turns[1]?.events[1]?.type).toBe('config_delta');
  });
});
