import { describe, expect, it } from 'vitest';
import { candidateLine } from './completion-candidate.ts';

describe('candidateLine', () => {
  it('is the value, or the value and its description after a tab', () => {
    expect(candidateLine({ value: 'echo' })).toBe('echo');
    expect(candidateLine({ value: '0abc', description: 'refactor the parser' })).toBe('0abc\trefactor the parser');
  });

  it('keeps a description on its line and shows what a terminal would act on', () => {
    expect(candidateLine({ value: 'id', description: 'a\ttitle\nwith\r\nlines\u001b]0;owned\u0007 \u202eevil' })).toBe(
      'id\ta title with lines\\x1b]0;owned\\x07 \\u202eevil',
    );
  });

  it('leaves out a value that would not be inserted as stored', () => {
    expect(candidateLine({ value: 'two\nlines' })).toBeUndefined();
    expect(candidateLine({ value: 'tab\there' })).toBeUndefined();
    expect(candidateLine({ value: 'esc\u001b[2J' })).toBeUndefined();
    expect(candidateLine({ value: '' })).toBeUndefined();
  });

  it('shortens a long description', () => {
    const line = candidateLine({ value: 'id', description: 'x'.repeat(200) })!;
    expect(line.split('\t')[1]).toHaveLength(80);
  });
});
