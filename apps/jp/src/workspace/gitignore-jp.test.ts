import { describe, expect, it } from 'vitest';
import { withJpIgnored } from './gitignore-jp.ts';

describe('withJpIgnored', () => {
  it('adds .jp/ as the last line, keeping the final newline as it was', () => {
    expect(withJpIgnored('')).toBe('.jp/\n');
    expect(withJpIgnored('node_modules/\n')).toBe('node_modules/\n.jp/\n');
    expect(withJpIgnored('node_modules/')).toBe('node_modules/\n.jp/');
    expect(withJpIgnored('dist\r\nnode_modules\r\n')).toBe('dist\r\nnode_modules\r\n.jp/\r\n');
  });

  it('adds nothing when a line already ignores .jp the same way', () => {
    for (const line of ['.jp', '.jp/', '/.jp', '/.jp/', '.jp/*', '/.jp/**', '.jp/  ']) expect(withJpIgnored(`dist\n${line}\nbuild\n`), line).toBeUndefined();
    expect(withJpIgnored('dist\r\n.jp/\r\n')).toBeUndefined();
  });

  it('does not take a comment, a negation or another path for it', () => {
    for (const line of ['# .jp/', '!.jp/', 'a/.jp/', '.jp/conversations/', '.jpx']) expect(withJpIgnored(`${line}\n`), line).toBe(`${line}\n.jp/\n`);
  });
});
