import { describe, expect, it } from 'vitest';
import { stderrTail } from './stderr-tail.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('stderrTail', () => {
  it('joins the last five non-blank lines on one line', () => {
    const text = ['one', 'two', '', 'three', 'four', 'five', 'six', '', ''].join('\n');
    expect(stderrTail(bytes(text))).toBe('two | three | four | five | six');
  });

  it('handles CRLF, colour codes and control characters', () => {
    expect(stderrTail(bytes('\u001b[31merror:\u001b[0m bad\r\nnext\tline\u0007\r\n'))).toBe('error: bad | next line');
  });

  it('keeps the end of a long line, marked with …', () => {
    const tail = stderrTail(bytes(`${'x'.repeat(1000)}END`));
    expect(tail).toHaveLength(500);
    expect(tail.startsWith('…')).toBe(true);
    expect(tail.endsWith('xEND')).toBe(true);
  });

  it('is empty for silent stderr', () => {
    expect(stderrTail(bytes('\n \n'))).toBe('');
    expect(stderrTail(new Uint8Array())).toBe('');
  });
});
