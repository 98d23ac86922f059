import { describe, expect, it } from 'vitest';
import { matchLines } from './match-lines.ts';
import { compilePattern } from './search-pattern.ts';

describe('matchLines', () => {
  const text = ['one', 'two needle', 'three', 'four', 'five needle', 'six', 'seven', 'eight', 'nine needle'].join('\n');

  it('gives each matching line with its number, the column of its first match in characters, and the ranges', () => {
    const hits = matchLines('x\r\n😀ü needle needle', compilePattern({ pattern: 'needle' }), 0);
    expect(hits).toEqual([
      {
        line: 2,
        column: 4,
        text: '😀ü needle needle',
        ranges: [
          [4, 10],
          [11, 17],
        ],
        before: [],
        after: [],
      },
    ]);
  });

  it('gives context lines, never the same line twice', () => {
    const hits = matchLines(text, compilePattern({ pattern: 'needle' }), 2);
    expect(hits.map((hit) => [hit.line, hit.before, hit.after])).toEqual([
      [2, ['one'], ['three', 'four']],
      [5, [], ['six', 'seven']],
      [9, ['eight'], []],
    ]);
  });

  it('finds nothing in a text without the required literal', () => {
    expect(matchLines(text, compilePattern({ pattern: 'absent' }), 1)).toEqual([]);
  });
});
