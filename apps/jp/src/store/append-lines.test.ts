import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendLines } from './append-lines.ts';

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
});
