import { describe, expect, it } from 'vitest';
import { decodeText, utf8Boundary } from './utf8-text.ts';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

describe('utf8Boundary', () => {
  it('never ends inside a sequence of 1 to 4 bytes', () => {
    const text = 'aé€😀z';
    const all = bytes(text);
    for (let length = 0; length <= all.length; length++) {
      const cut = utf8Boundary(all.subarray(0, length));
      expect(cut).toBeLessThanOrEqual(length);
      expect(length - cut).toBeLessThan(4);
      expect(decodeText(all.subarray(0, cut))).toBe(text.slice(0, decodeText(all.subarray(0, cut))?.length));
    }
    expect(utf8Boundary(all)).toBe(all.length);
  });
});

describe('decodeText', () => {
  it('accepts UTF-8 and refuses NUL bytes and invalid sequences', () => {
    expect(decodeText(bytes('héllo'))).toBe('héllo');
    expect(decodeText(new Uint8Array([0x68, 0x00]))).toBeUndefined();
    expect(decodeText(new Uint8Array([0xc3]))).toBeUndefined();
    expect(decodeText(new Uint8Array([]))).toBe('');
  });
});
