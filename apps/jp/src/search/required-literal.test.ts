import { describe, expect, it } from 'vitest';
import { requiredLiteral } from './required-literal.ts';

describe('requiredLiteral', () => {
  it('finds the longest run every match must contain', () => {
    expect(requiredLiteral('ENOSPC-\\w+-bug-[0-9a-f]+')).toBe('ENOSPC-');
    expect(requiredLiteral('\\bretry\\b')).toBe('retry');
    expect(requiredLiteral('(foo)barbaz')).toBe('barbaz');
    expect(requiredLiteral('a\\.b\\.c')).toBe('a.b.c');
    expect(requiredLiteral('file\\\\name')).toBe('file\\name');
  });

  it('leaves out what a quantifier may repeat zero times, and ends a run after one that repeats', () => {
    expect(requiredLiteral('colou?r')).toBe('colo');
    expect(requiredLiteral('abx*yz')).toBe('ab');
    expect(requiredLiteral('abcd+ef')).toBe('abcd');
    expect(requiredLiteral('ab{0,3}cdef')).toBe('cdef');
  });

  it('gives none where nothing is sure: alternation, classes only, escapes that stand for many characters', () => {
    expect(requiredLiteral('retry|backoff')).toBeUndefined();
    expect(requiredLiteral('[0-9][a-f]')).toBeUndefined();
    expect(requiredLiteral('\\d+\\s\\w')).toBeUndefined();
    expect(requiredLiteral('(a+)+$')).toBeUndefined();
  });

  it('does not read the digits of an escape as literal text', () => {
    expect(requiredLiteral('\\u0041\\u{1F600}xy')).toBe('xy');
    expect(requiredLiteral('\\x41bc')).toBe('bc');
    expect(requiredLiteral('(a)\\1zz')).toBe('zz');
    expect(requiredLiteral('\\p{L}+word')).toBe('word');
  });

  it('keeps an alternation inside a class out of the way (it is no alternation)', () => {
    expect(requiredLiteral('[|]pipe')).toBe('pipe');
  });
});
