import { describe, expect, it } from 'vitest';
import { describeBytes } from './utf8-path.ts';

describe('describeBytes', () => {
  it('shows UTF-8 runs as text and other bytes as \\xNN', () => {
    expect(describeBytes(Buffer.from('plain.txt'))).toBe('plain.txt');
    expect(describeBytes(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74]))).toBe('caf\\xe9.t');
    expect(describeBytes(Buffer.concat([Buffer.from('é€'), Buffer.from([0xff, 0xfe]), Buffer.from('😀')]))).toBe('é€\\xff\\xfe😀');
    // A lead byte whose sequence is cut short is not UTF-8 either.
    expect(describeBytes(Buffer.from([0x61, 0xe2, 0x82]))).toBe('a\\xe2\\x82');
  });
});
