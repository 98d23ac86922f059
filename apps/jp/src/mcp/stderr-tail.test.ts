import { describe, expect, it } from 'vitest';
import { StderrTail } from './stderr-tail.ts';

describe('StderrTail', () => {
  it('gives the last non-blank line across chunks', () => {
    const tail = new StderrTail();
    expect(tail.lastLine()).toBeUndefined();
    tail.push('starting\nfatal: no con');
    tail.push(Buffer.from('fig found\r\n\n  \n'));
    expect(tail.lastLine()).toBe('fatal: no config found');
  });

  it('keeps only the end and bounds the line', () => {
    const tail = new StderrTail(64);
    tail.push(`${'noise\n'.repeat(1000)}last ${'x'.repeat(100)}`);
    expect(tail.lastLine(20)).toBe('xxxxxxxxxxxxxxxxx...');
  });
});
