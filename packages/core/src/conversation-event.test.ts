import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KNOWN_EVENT_TYPES, isKnownEvent, isKnownEventType } from './event-types.ts';
import {
  EVENT_SCHEMAS,
  eventToJson,
  parseEvent,
  serializeEvent,
  type ChatRequestEvent,
  type ConversationEvent,
  type ToolCallResponseEvent,
} from './conversation-event.ts';
import { isBlobResource, isTextResource } from './resource-content.ts';

const fixture = readFileSync(new URL('./__fixtures__/events.jsonl', import.meta.url), 'utf8');
const fixtureLines = fixture.split('\n').filter((line) => line !== '');

/** What the event store does: one `parseEvent` per line, failing loudly on a bad one. */
function load(lines: readonly string[]): ConversationEvent[] {
  return lines.map((line, index) => {
    const result = parseEvent(JSON.parse(line));
    if (!result.success) throw new Error(`line ${index + 1}: ${result.error}`);
    return result.event;
  });
}

function parseLine(line: string): ConversationEvent {
  const [event] = load([line]);
  if (event === undefined) throw new Error('no event');
  return event;
}

function errorOf(json: unknown): string {
  const result = parseEvent(json);
  if (result.success) throw new Error(`expected a parse failure, got ${JSON.stringify(result.event)}`);
  return result.error;
}

describe('events.jsonl round trip', () => {
  it('covers every known event type and an unknown one', () => {
    const types = new Set(fixtureLines.map((line) => (JSON.parse(line) as { type: string }).type));
    for (const type of KNOWN_EVENT_TYPES) expect(types).toContain(type);
    expect([...types].some((type) => !isKnownEventType(type))).toBe(true);
  });

  it('saves every loaded line back byte for byte', () => {
    const saved = load(fixtureLines).map(serializeEvent);
    expect(saved).toHaveLength(fixtureLines.length);
    saved.forEach((line, index) => expect(line, `line ${index + 1}`).toBe(fixtureLines[index]));
  });

  it('is stable: a second load/save changes nothing', () => {
    const once = load(fixtureLines).map(serializeEvent);
    expect(load(once).map(serializeEvent)).toEqual(once);
  });

  it('holds blobs as bytes in memory', () => {
    const events = load(fixtureLines);
    const request = events.find((e): e is ChatRequestEvent => e.type === 'chat_request' && isKnownEvent(e));
    const png = request?.resources.find((r) => r.mimeType === 'image/png');
    expect(png && isBlobResource(png) && [...png.blob.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const text = request?.resources[0];
    expect(text && isTextResource(text) && text.text).toContain('héllo ✓');
  });
});

describe('each event type', () => {
  it.each([
    ['turn_start', '{"type":"turn_start","timestamp":"2026-03-20T10:00:00.000Z"}'],
    [
      'config_delta',
      '{"type":"config_delta","timestamp":"2026-03-20T10:00:00.000Z","delta":{"conversation":{"attachments":[{"url":"README.md"}]}}}',
    ],
    [
      'config_delta from the files',
      '{"type":"config_delta","timestamp":"2026-03-20T10:00:00.000Z","source":"files","delta":{"assistant":{"model":"echo"}},"removed":[["mcp","old"]]}',
    ],
    [
      'chat_request with schema',
      '{"type":"chat_request","timestamp":"2026-03-20T10:00:00.000Z","content":"List the files","schema":{"type":"array","items":{"type":"string"}}}',
    ],
    [
      'tool_call_request',
      '{"type":"tool_call_request","timestamp":"2026-03-20T10:00:00.000Z","id":"call_1","name":"refresh_resource","arguments":{"uri":"file:///p/a.rs"}}',
    ],
    [
      'tool_call_response',
      '{"type":"tool_call_response","timestamp":"2026-03-20T10:00:00.000Z","id":"call_1","content":[{"type":"text","text":"ok"}],"isError":false}',
    ],
    ['chat_response message', '{"type":"chat_response","timestamp":"2026-03-20T10:00:00.000Z","message":"Hello."}'],
    ['chat_response reasoning', '{"type":"chat_response","timestamp":"2026-03-20T10:00:00.000Z","reasoning":"Think."}'],
    [
      'chat_response structured',
      '{"type":"chat_response","timestamp":"2026-03-20T10:00:00.000Z","structured":[{"a":1},"b",null,true]}',
    ],
    ['chat_response structured null', '{"type":"chat_response","timestamp":"2026-03-20T10:00:00.000Z","structured":null}'],
    [
      'chat_response with usage',
      '{"type":"chat_response","timestamp":"2026-03-20T10:00:00.000Z","usage":{"inputTokens":10,"outputTokens":2},"message":"Hi"}',
    ],
  ])('%s parses and serialises back to the same line', (_label, line) => {
    const event = parseLine(line);
    const json = JSON.parse(line) as { type: string };
    expect(isKnownEvent(event)).toBe(true);
    expect(event).toEqual(json.type === 'chat_request' ? { ...json, resources: [] } : json);
    expect(serializeEvent(event)).toBe(line);
  });

  it('keeps the chat_response variants apart', () => {
    const message = parseLine('{"type":"chat_response","timestamp":"t","message":"m"}');
    const reasoning = parseLine('{"type":"chat_response","timestamp":"t","reasoning":"r"}');
    const structured = parseLine('{"type":"chat_response","timestamp":"t","structured":{"k":"v"}}');
    expect(Object.keys(message)).toEqual(['type', 'timestamp', 'message']);
    expect(Object.keys(reasoning)).toEqual(['type', 'timestamp', 'reasoning']);
    expect(Object.keys(structured)).toEqual(['type', 'timestamp', 'structured']);
    // A structured answer that happens to be a string stays structured.
    expect(parseLine('{"type":"chat_response","timestamp":"t","structured":"yes"}')).toEqual({
      type: 'chat_response',
      timestamp: 't',
      structured: 'yes',
    });
  });
});

describe('chat_request resources', () => {
  const legacy = '{"type":"chat_request","timestamp":"2025-11-02T08:15:00.000Z","content":"Hello"}';

  it('parses a line without resources as resources: []', () => {
    const event = parseLine(legacy);
    expect(event.type === 'chat_request' && (event as ChatRequestEvent).resources).toEqual([]);
  });

  it('serialises an empty resources list back to the same line, without the field', () => {
    expect(serializeEvent(parseLine(legacy))).toBe(legacy);
    expect(eventToJson(parseLine(legacy))).not.toHaveProperty('resources');
  });

  it('normalises an explicit empty list to the omitted form', () => {
    const explicit = '{"type":"chat_request","timestamp":"2025-11-02T08:15:00.000Z","content":"Hello","resources":[]}';
    expect(serializeEvent(parseLine(explicit))).toBe(legacy);
  });

  it('writes blobs as base64 and keeps a resource with no extensions free of them', () => {
    const event: ChatRequestEvent = {
      type: 'chat_request',
      timestamp: 't',
      content: 'see attached',
      resources: [{ uri: 'mcp://s/img', mimeType: 'image/gif', blob: new Uint8Array([0x47, 0x49, 0x46]) }],
    };
    expect(serializeEvent(event)).toBe(
      '{"type":"chat_request","timestamp":"t","content":"see attached","resources":[{"uri":"mcp://s/img","mimeType":"image/gif","blob":"R0lG"}]}',
    );
  });

  it('does not mutate the event while serialising', () => {
    const event = parseLine(legacy) as ChatRequestEvent;
    serializeEvent(event);
    expect(event.resources).toEqual([]);
  });
});

describe('tool_call_response with resource blocks', () => {
  const line =
    '{"type":"tool_call_response","timestamp":"2026-03-20T10:00:00.000Z","id":"call_7","content":[' +
    '{"type":"resource","resource":{"uri":"file:///p/logo.png","mimeType":"image/png","annotations":{"audience":["assistant"],"priority":0.8},"blob":"iVBORw0KGgo="}},' +
    '{"type":"resource","resource":{"uri":"file:///p/data.bin","blob":""},"formatted":"[empty file]"},' +
    '{"type":"resource","resource":{"uri":"file:///p/a.txt","mimeType":"text/plain","text":"a"}}' +
    '],"isError":false}';

  it('decodes blobs, keeps block-level formatted, and writes the same line', () => {
    const event = parseLine(line) as ToolCallResponseEvent;
    const [png, empty, text] = event.content;
    expect(png?.type === 'resource' && isBlobResource(png.resource) && [...png.resource.blob]).toEqual([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ]);
    expect(png?.type === 'resource' && png.resource.annotations).toEqual({ audience: ['assistant'], priority: 0.8 });
    expect(empty?.type === 'resource' && isBlobResource(empty.resource) && empty.resource.blob.byteLength).toBe(0);
    expect(empty?.type === 'resource' && empty.formatted).toBe('[empty file]');
    expect(text?.type === 'resource' && isTextResource(text.resource)).toBe(true);
    expect(serializeEvent(event)).toBe(line);
  });

  it('defaults a missing isError to false', () => {
    const event = parseLine('{"type":"tool_call_response","timestamp":"t","id":"c","content":[]}');
    expect((event as ToolCallResponseEvent).isError).toBe(false);
  });
});

describe('unknown event types', () => {
  it('survive parse and serialise byte for byte', () => {
    const line = '{"type":"future_thing","timestamp":"2026-03-20T10:00:00.000Z","payload":{"nested":[1,2]}}';
    const event = parseLine(line);
    expect(isKnownEvent(event)).toBe(false);
    expect(event).toEqual(JSON.parse(line));
    expect(serializeEvent(event)).toBe(line);
  });

  it('are unknown even when their type names an Object.prototype member', () => {
    for (const type of ['toString', 'constructor', 'hasOwnProperty']) {
      const line = `{"type":"${type}","timestamp":"t","x":1}`;
      const event = parseLine(line);
      expect(isKnownEvent(event)).toBe(false);
      expect(serializeEvent(event)).toBe(line);
    }
  });

  it('keep a "__proto__" field as data', () => {
    const line = '{"type":"future_thing","__proto__":{"polluted":true},"n":1}';
    const event = parseLine(line);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(serializeEvent(event)).toBe(line);
  });

  it('do not need a timestamp', () => {
    expect(serializeEvent(parseLine('{"type":"marker"}'))).toBe('{"type":"marker"}');
  });
});

describe('malformed events', () => {
  it('rejects non-objects and a missing type', () => {
    expect(errorOf(null)).toMatch(/JSON object/);
    expect(errorOf([{ type: 'turn_start' }])).toMatch(/JSON object/);
    expect(errorOf('turn_start')).toMatch(/JSON object/);
    expect(errorOf({ timestamp: 't' })).toMatch(/"type"/);
    expect(errorOf({ type: '' })).toMatch(/"type"/);
    expect(errorOf({ type: 7 })).toMatch(/"type"/);
  });

  it('names the event type and the path of each problem', () => {
    const error = errorOf({ type: 'tool_call_request', timestamp: 't', id: '', name: 'x', arguments: [] });
    expect(error).toMatch(/^invalid tool_call_request event: /);
    expect(error).toContain('id: ');
    expect(error).toContain('arguments: ');
    expect(error).not.toContain('\n');
  });

  it('rejects a chat_request without content or a timestamp', () => {
    expect(errorOf({ type: 'chat_request', timestamp: 't' })).toMatch(/^invalid chat_request event: content: /);
    expect(errorOf({ type: 'chat_request', content: 'hi' })).toMatch(/timestamp: /);
  });

  it('points into a bad resource inside a chat_request', () => {
    const bad = { type: 'chat_request', timestamp: 't', content: 'x', resources: [{ uri: 'u', text: 'ok' }, { uri: 'v', blob: '%%%' }] };
    expect(errorOf(bad)).toBe('invalid chat_request event: resources[1].blob: Invalid base64-encoded string');
    const both = { type: 'chat_request', timestamp: 't', content: 'x', resources: [{ uri: 'u', text: 'a', blob: 'YQ==' }] };
    expect(errorOf(both)).toBe('invalid chat_request event: resources[0]: a resource has one of "text" (a string), "blob" (base64) or "ref" (stored content), not "text" and "blob"');
  });

  it('rejects a tool_call_response with an unknown content block type', () => {
    const bad = { type: 'tool_call_response', timestamp: 't', id: 'c', content: [{ type: 'image', data: 'AA==' }], isError: false };
    expect(errorOf(bad)).toMatch(/^invalid tool_call_response event: content\[0\]/);
  });

  it('rejects a chat_response with none or more than one of message, reasoning, structured', () => {
    const expected = 'invalid chat_response event: a chat_response has exactly one of "message" (string), "reasoning" (string) or "structured"';
    expect(errorOf({ type: 'chat_response', timestamp: 't' })).toBe(expected);
    expect(errorOf({ type: 'chat_response', timestamp: 't', message: 'a', reasoning: 'b' })).toBe(expected);
    expect(errorOf({ type: 'chat_response', timestamp: 't', message: 'a', structured: {} })).toBe(expected);
    // With one of them present, the problem with that variant is reported instead.
    expect(errorOf({ type: 'chat_response', timestamp: 't', message: 5 })).toBe(
      'invalid chat_response event: message: Invalid input: expected string, received number',
    );
    expect(EVENT_SCHEMAS.chat_response.safeParse({ type: 'chat_response', timestamp: 't', reasoning: 'r', structured: 1 }).success).toBe(false);
  });

  it('rejects negative or fractional token counts', () => {
    expect(errorOf({ type: 'chat_response', timestamp: 't', usage: { inputTokens: -1 }, message: 'm' })).toMatch(/usage\.inputTokens/);
    expect(errorOf({ type: 'chat_response', timestamp: 't', usage: { outputTokens: 1.5 }, message: 'm' })).toMatch(/usage\.outputTokens/);
  });

  it('rejects a config_delta whose delta is not an object', () => {
    expect(errorOf({ type: 'config_delta', timestamp: 't', delta: 'model=echo' })).toMatch(/^invalid config_delta event: delta: /);
    expect(errorOf({ type: 'config_delta', timestamp: 't', source: 'user', delta: {} })).toMatch(/^invalid config_delta event: source: /);
    expect(errorOf({ type: 'config_delta', timestamp: 't', source: 'files', delta: {}, removed: [[]] })).toMatch(/^invalid config_delta event: removed/);
  });
});
