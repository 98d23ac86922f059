import { describe, expect, it } from 'vitest';
import { gitConfigValue } from './git-config-value.ts';

const excludesFile = (text: string) => gitConfigValue(text, 'core', 'excludesFile');

describe('gitConfigValue', () => {
  it('reads a key of a section, ignoring case, the last one winning', () => {
    expect(excludesFile('[core]\n\texcludesFile = ~/.gitignore_global\n')).toBe('~/.gitignore_global');
    expect(excludesFile('[Core]\n  ExcludesFile=/a\n[user]\n  name = x\n[core]\nexcludesfile = /b\n')).toBe('/b');
    expect(excludesFile('[core] excludesFile = /same-line\n')).toBe('/same-line');
  });

  it('leaves out other sections, subsections and comments', () => {
    expect(excludesFile('[user]\nexcludesFile = /no\n')).toBeUndefined();
    expect(excludesFile('[core "x"]\nexcludesFile = /no\n')).toBeUndefined();
    expect(excludesFile('[core]\n# excludesFile = /no\n; excludesFile = /no\n')).toBeUndefined();
    expect(excludesFile('[core]\nexcludesFileX = /no\n')).toBeUndefined();
  });

  it('reads quotes, escapes, trailing comments and continued lines as git does', () => {
    expect(excludesFile('[core]\nexcludesFile = "/a b/#not a comment" # a comment\n')).toBe('/a b/#not a comment');
    expect(excludesFile('[core]\nexcludesFile = /a\\\\b\\"c ; comment\n')).toBe('/a\\b"c');
    expect(excludesFile('[core]\nexcludesFile = /long\\\n/path\n')).toBe('/long/path');
    expect(excludesFile('[core]\r\nexcludesFile = /crlf\r\n')).toBe('/crlf');
    expect(excludesFile('[core]\nexcludesFile =\n')).toBe('');
  });
});
