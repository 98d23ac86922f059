import { describe, expect, it } from 'vitest';
import { completeChatLine } from './chat-completer.ts';

const tree: Record<string, Array<{ name: string; directory: boolean }>> = {
  '/w': [
    { name: 'src', directory: true },
    { name: 'README.md', directory: false },
    { name: '.env', directory: false },
    { name: 'scripts', directory: true },
    { name: 'a\x1b]0;owned\x07.txt', directory: false },
    { name: 'tab\there', directory: true },
  ],
  '/w/tab\there': [{ name: 'x.md', directory: false }],
  '/w/src': [
    { name: 'main.ts', directory: false },
    { name: 'lib', directory: true },
  ],
};
const list = (dir: string) => tree[dir] ?? [];

describe('completeChatLine', () => {
  it('completes command names', () => {
    expect(completeChatLine('/e', '/w', list)).toEqual([['/explain ', '/edit '], '/e']);
    expect(completeChatLine('/', '/w', list)[0]).toHaveLength(11);
    expect(completeChatLine('/co', '/w', list)).toEqual([['/compact '], '/co']);
    expect(completeChatLine('/at', '/w', list)).toEqual([['/attach '], '/at']);
  });

  it('completes paths after /attach, directories with a slash, hidden ones only when asked', () => {
    expect(completeChatLine('/attach s', '/w', list)).toEqual([['scripts/', 'src/'], 's']);
    expect(completeChatLine('/attach README.md src/', '/w', list)).toEqual([['src/lib/', 'src/main.ts '], 'src/']);
    expect(completeChatLine('/attach ', '/w', list)[0]).not.toContain('.env ');
    expect(completeChatLine('/attach .e', '/w', list)).toEqual([['.env '], '.e']);
  });

  it('gives a name holding control characters, tabs or line breaks in its visible form, and lists inside such a directory', () => {
    expect(completeChatLine('/attach a', '/w', list)).toEqual([['a\\x1b]0;owned\\x07.txt '], 'a']);
    expect(completeChatLine('/attach a\\x1b]', '/w', list)).toEqual([['a\\x1b]0;owned\\x07.txt '], 'a\\x1b]']);
    expect(completeChatLine('/attach t', '/w', list)).toEqual([['tab\\x09here/'], 't']);
    expect(completeChatLine('/attach tab\\x09here/', '/w', list)).toEqual([['tab\\x09here/x.md '], 'tab\\x09here/']);
  });

  it('completes nothing in a message', () => {
    expect(completeChatLine('explain s', '/w', list)).toEqual([[], 'explain s']);
  });
});
