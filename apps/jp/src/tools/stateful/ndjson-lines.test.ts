import { describe, expect, it } from 'vitest';
import { NdjsonLines } from './ndjson-lines.ts';

describe('NdjsonLines', () => {
  it('joins lines split across chunks and keeps the unfinished one', () => {
    const lines = new NdjsonLines(1024);
    expect(lines.push(Buffer.from('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(lines.push(Buffer.from(':2}\r\n\n{"c":3}'))).toEqual(['{"b":2}', '']);
    expect(lines.end()).toEqual(['{"c":3}']);
    expect(lines.end()).toEqual([]);
  });

  it('keeps a multi-byte character cut between chunks', () => {
    const bytes = Buffer.from('"é"\n');
    const lines = new NdjsonLines(1024);
    expect(lines.push(bytes.subarray(0, 2))).toEqual([]);
    expect(lines.push(bytes.subarray(2))).toEqual(['"é"']);
  });

  it('skips a line longer than the limit, counting its bytes, and reads the next one', () => {
    const lines = new NdjsonLines(10);
    expect(lines.push(Buffer.from('x'.repeat(8)))).toEqual([]);
    expect(lines.push(Buffer.from('y'.repeat(8)))).toEqual([]);
    expect(lines.push(Buffer.from('zz\nok\n'))).toEqual(['ok']);
    expect(lines.droppedBytes).toBe(18);
  });
});
