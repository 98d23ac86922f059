import { describe, expect, it } from 'vitest';
import { visibleWidth, wrapStyled } from './wrap-styled.ts';

describe('visibleWidth and wrapStyled', () => {
  it('counts code points and skips styles, plain text by its length', () => {
    expect(visibleWidth('plain words')).toBe(11);
    expect(visibleWidth('\u001b[1mbold\u001b[22m')).toBe(4);
    expect(visibleWidth('😀 ok')).toBe(4);
  });

  it('hangs the rest under a prefix of another width, and cuts a word longer than the line', () => {
    expect(wrapStyled('one two three four', 12, '\u001b[2m•\u001b[22m ', '  ')).toEqual(['\u001b[2m•\u001b[22m one two', '  three four']);
    expect(wrapStyled(`see ${'x'.repeat(25)}`, 12)).toEqual(['see', 'x'.repeat(12), 'x'.repeat(12), 'x']);
  });
});
