import { describe, expect, it } from 'vitest';
import { compilePattern } from './search-pattern.ts';

const ranges = (pattern: Parameters<typeof compilePattern>[0], line: string) => compilePattern(pattern).matchesIn(line);

describe('compilePattern', () => {
  it('is literal by default: regular expression characters match themselves', () => {
    expect(ranges({ pattern: 'a.c' }, 'abc a.c')).toEqual([[4, 7]]);
    expect(ranges({ pattern: '(x)' }, 'f(x) + (x)')).toEqual([
      [1, 4],
      [7, 10],
    ]);
    expect(compilePattern({ pattern: 'a.c' }).required).toBe('a.c');
  });

  it('reads a regular expression with --regex, and its required literal', () => {
    expect(ranges({ pattern: 'a.c', regex: true }, 'abc')).toEqual([[0, 3]]);
    expect(compilePattern({ pattern: 'retry-\\d+', regex: true }).required).toBe('retry-');
  });

  it('ignores case with -i, Unicode letters included; the required text is then only a folded hint', () => {
    expect(ranges({ pattern: 'héllo', ignoreCase: true }, 'HÉLLO')).toEqual([[0, 5]]);
    const folded = compilePattern({ pattern: 'Retry', ignoreCase: true });
    expect(folded.required).toBeUndefined();
    expect(folded.requiredFolded).toBe('Retry');
  });

  it('matches whole words with --word, in any script', () => {
    expect(ranges({ pattern: 'cat', word: true }, 'cat concat cats cat.')).toEqual([
      [0, 3],
      [16, 19],
    ]);
    expect(ranges({ pattern: 'кот', word: true }, 'котик кот')).toEqual([[6, 9]]);
  });

  it('moves on after an empty match, by whole code points', () => {
    expect(ranges({ pattern: 'x*', regex: true }, '😀x')).toEqual([
      [0, 0],
      [2, 3],
      [3, 3],
    ]);
  });

  it('refuses an empty pattern, a line break and a regular expression that does not compile, saying why (exit 2)', () => {
    expect(() => compilePattern({ pattern: '' })).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringMatching(/empty/) }));
    expect(() => compilePattern({ pattern: 'a\nb' })).toThrow(expect.objectContaining({ exitCode: 2, message: expect.stringMatching(/line break/) }));
    expect(() => compilePattern({ pattern: '(unclosed', regex: true })).toThrow(
      expect.objectContaining({ exitCode: 2, message: 'invalid regular expression "(unclosed": Unterminated group' }),
    );
  });
});
