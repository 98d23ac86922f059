import { describe, expect, it } from 'vitest';
import { completeChatLine } from './chat-completer.ts';

const tree: Record<string, Array<{ name: string; directory: boolean }>> = {
  '/w': [
    { name: 'src', directory: true },
    { name: 'README.md', directory: false },
    { name: '.env', directory: false },
    { name: 'scripts', directory: true },
  ],
  '/w/src': [
    { name: 'main.ts', directory: false },
    { name: 'lib', directory: true },
  ],
};
const list = (dir: string) => tree[dir] ?? [];

describe('completeChatLine', () => {
  it('completes command names', () => {
    expect(completeChatLine('/e', '/w', list)).toEqual([['/explain', '/edit'], '/e']);
    expect(completeChatLine('/', '/w', list)[0]).toHaveLength(11);
    expect(completeChatLine('/co', '/w', list)).toEqual([['/compact'], '/co']);
  });

  it('completes paths after /attach, directories with a slash, hidden ones only when asked', () => {
    expect(completeChatLine('/attach s', '/w', list)).toEqual([['scripts/', 'src/'], 's']);
    expect(completeChatLine('/attach README.md src/', '/w', list)).toEqual([['src/lib/', 'src/main.ts'], 'src/']);
    expect(completeChatLine('/attach ', '/w', list)[0]).not.toContain('.env');
    expect(completeChatLine('/attach .e', '/w', list)).toEqual([['.env'], '.e']);
  });

  it('completes nothing in a message', () => {
    expect(completeChatLine('explain s', '/w', list)).toEqual([[], 'explain s']);
  });
});
