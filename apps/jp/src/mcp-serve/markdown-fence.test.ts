import { describe, expect, it } from 'vitest';
import { fenced, inlineCode } from './markdown-fence.ts';

describe('markdown fences', () => {
  it('fences with more backticks than the text holds', () => {
    expect(fenced('a')).toBe('```\na\n```');
    expect(fenced('x ```` y\n', 'json')).toBe('`````json\nx ```` y\n`````');
  });

  it('quotes inline code holding backticks', () => {
    expect(inlineCode('a')).toBe('`a`');
    expect(inlineCode('a`b')).toBe('``a`b``');
    expect(inlineCode('`a')).toBe('`` `a ``');
  });
});
