import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendLines } from './append-lines.ts';
import { readEventsFile } from './events-file.ts';
import { markAppend } from './unfinished-append.ts';

const eventsFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'jp-append-')), 'events.jsonl');
const big = JSON.stringify({ n: 1, text: 'x'.repeat(200_000) }); // longer than one backward read

describe('appendLines', () => {
  it('appends whole lines to a new or existing file', () => {
    const file = eventsFile();
    appendLines(file, ['{"n":1}', '{"n":2}']);
    appendLines(file, ['{"n":3}']);
    appendLines(file, []);
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it.each([
    ['cuts a torn last line', '{"n":1}\n{"n":2,"text":"cut sh', '{"n":1}\n'],
    ['cuts a torn first and only line', '{"n":', ''],
    ['cuts a last line of blanks', '{"n":1}\n  ', '{"n":1}\n'],
    ['keeps a complete last line that lacks only its newline (a hand edit), and ends it', '{"n":1}\n{"n":2,"edited":"by hand"}', '{"n":1}\n{"n":2,"edited":"by hand"}\n'],
    ['keeps such a line when it is the only one', '{"n":1}', '{"n":1}\n'],
    ['keeps such a line when it is long', `{"n":0}\n${big}`, `{"n":0}\n${big}\n`],
  ])('%s before appending', (_, before, kept) => {
    const file = eventsFile();
    writeFileSync(file, before);
    appendLines(file, ['{"n":3}']);
    expect(readFileSync(file, 'utf8')).toBe(`${kept}{"n":3}\n`);
  });

  it('cuts what an append killed midway wrote, whole lines included, and readers never see it', () => {
    const file = eventsFile();
    const kept = '{"type":"turn_start","timestamp":"2026-01-01T00:00:00Z"}\n';
    // A killed append: its marker, and its first page, which ends in whole lines (a request without its answer).
    writeFileSync(file, `${kept}{"type":"turn_start","timestamp":"2026-01-01T00:00:01Z"}\n{"type":"chat_request","timestamp":"2026-01-01T00:00:01Z","content":"cut"}\n`);
    markAppend(file, Buffer.byteLength(kept));
    expect(readEventsFile(file).events.map((event) => event.timestamp)).toEqual(['2026-01-01T00:00:00Z']);
    appendLines(file, ['{"n":3}']);
    expect(readFileSync(file, 'utf8')).toBe(`${kept}{"n":3}\n`);
    expect(readdirSync(path.dirname(file))).toEqual(['events.jsonl']);
  });

  it('leaves no marker after an append, nor after one that failed', () => {
    const file = eventsFile();
    appendLines(file, ['{"n":1}']);
    expect(readdirSync(path.dirname(file))).toEqual(['events.jsonl']);
    process.env.JP_TEST_ENOSPC_AT = 'test-append';
    try {
      expect(() => appendLines(file, ['{"n":2}'], 'test-append')).toThrow(/disk is full/);
    } finally {
      delete process.env.JP_TEST_ENOSPC_AT;
    }
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n');
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(path.dirname(file))).toEqual(['events.jsonl']);
  });
});
