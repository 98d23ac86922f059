import { describe, expect, it } from 'vitest';
import { sortByUtf8Path } from './utf8-order.ts';

/** The reference order: the paths' UTF-8 bytes compared as bytes. */
function byBytes(paths: string[]): string[] {
  return [...paths].sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
}

function sorted(paths: string[]): string[] {
  return sortByUtf8Path(paths.map((relative) => ({ relative }))).map((item) => item.relative);
}

describe('sortByUtf8Path', () => {
  it('puts a directory’s files after a sibling whose name continues with a character below /', () => {
    // '-' (0x2D) and '.' (0x2E) sort before '/' (0x2F), letters and digits after it.
    const paths = ['a/b', 'a-b', 'a.b', 'a', 'a0', 'ab', 'a/a', 'A', 'a b', 'a_b'];
    expect(sorted(paths)).toEqual(['A', 'a', 'a b', 'a-b', 'a.b', 'a/a', 'a/b', 'a0', 'a_b', 'ab']);
    expect(sorted(paths)).toEqual(byBytes(paths));
  });

  it('sorts names beyond ASCII by their UTF-8 bytes', () => {
    const paths = ['z', 'é', 'e\u0301', 'ñ/x', 'ß', '中', '\ufffd', '\uffef', 'a/é', 'a/z'];
    expect(sorted(paths)).toEqual(byBytes(paths));
  });

  it('sorts a character beyond U+FFFF after U+E000–U+FFFF, as its bytes do (and UTF-16 does not)', () => {
    const paths = ['x\u{1f600}', 'x\ue000', 'x\uffff', 'x\ufffd', 'x\u{10000}', 'x', 'xa', 'y/\u{1f600}', 'y/\uffef'];
    expect(sorted(paths)).toEqual(['x', 'xa', 'x\ue000', 'x\ufffd', 'x\uffff', 'x\u{10000}', 'x\u{1f600}', 'y/\uffef', 'y/\u{1f600}']);
    expect(sorted(paths)).toEqual(byBytes(paths));
  });

  it('sorts in place and keeps each item', () => {
    const items = [{ relative: 'b', n: 1 }, { relative: 'a', n: 2 }];
    expect(sortByUtf8Path(items)).toBe(items);
    expect(items).toEqual([{ relative: 'a', n: 2 }, { relative: 'b', n: 1 }]);
  });
});
