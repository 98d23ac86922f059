import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemas, type ConversationEvent } from '@jp/core';
import { appendLines } from './append-lines.ts';
import { readEventsFile } from './events-file.ts';

const { serializeEvent } = await loadSchemas();

const appendEvents = (file: string, events: readonly ConversationEvent[]) => appendLines(file, events.map(serializeEvent));

const dir = () => mkdtempSync(path.join(tmpdir(), 'jp-events-'));
const start = { type: 'turn_start' as const, timestamp: '2026-01-01T00:00:00.000Z' };
const ask = { type: 'chat_request' as const, timestamp: '2026-01-01T00:00:00.000Z', content: 'hi', resources: [] };

describe('events.jsonl', () => {
  it('appends whole lines and reads them back', () => {
    const file = path.join(dir(), 'events.jsonl');
    appendEvents(file, [start, ask]);
    appendEvents(file, [start]);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(4);
    const loaded = readEventsFile(file);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.events.map((e) => e.type)).toEqual(['turn_start', 'chat_request', 'turn_start']);
  });

  it('ignores a torn last line with a warning, and the next append cuts it off', () => {
    const file = path.join(dir(), 'events.jsonl');
    appendEvents(file, [start, ask]);
    appendFileSync(file, '{"type":"chat_resp');
    const torn = readEventsFile(file, { displayName: 'events.jsonl' });
    expect(torn.events).toHaveLength(2);
    expect(torn.warnings).toEqual([expect.stringMatching(/events\.jsonl: ignored an incomplete last line/)]);
    appendEvents(file, [start]);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('chat_resp"');
    expect(text.endsWith('\n')).toBe(true);
    expect(readEventsFile(file).events.map((e) => e.type)).toEqual(['turn_start', 'chat_request', 'turn_start']);
  });

  it('a torn first and only line leaves an empty stream', () => {
    const file = path.join(dir(), 'events.jsonl');
    writeFileSync(file, '{"type":"turn_');
    expect(readEventsFile(file).events).toEqual([]);
    appendEvents(file, [start]);
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(start)}\n`);
  });

  it('damage before the last line is an error naming the file and line, and the file is left alone', () => {
    const file = path.join(dir(), 'events.jsonl');
    const content = `${JSON.stringify(start)}\nnot json at all\n${JSON.stringify(ask)}\n`;
    writeFileSync(file, content);
    expect(() => readEventsFile(file, { displayName: '.jp/conversations/x/events.jsonl' })).toThrow(
      /\.jp\/conversations\/x\/events\.jsonl line 2 is damaged \(not valid JSON\)/,
    );
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('an invalid known event names the problem', () => {
    const file = path.join(dir(), 'events.jsonl');
    writeFileSync(file, '{"type":"chat_request","timestamp":"t"}\n');
    expect(() => readEventsFile(file, { displayName: 'f' })).toThrow(/f line 1 is damaged \(invalid chat_request event/);
  });

  it('keeps unknown event types field for field', () => {
    const file = path.join(dir(), 'events.jsonl');
    const line = '{"type":"from_the_future","timestamp":"t","payload":{"a":[1,2]}}';
    writeFileSync(file, `${line}\n`);
    const { events } = readEventsFile(file);
    appendEvents(file, events);
    expect(readFileSync(file, 'utf8')).toBe(`${line}\n${line}\n`);
  });

  it('a missing file is an empty stream', () => {
    expect(readEventsFile(path.join(dir(), 'none.jsonl'))).toEqual({ events: [], warnings: [] });
  });
});
