import { describe, expect, it } from 'vitest';
import { appendStderr, stderrNote, stderrText } from './failure-output.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('appendStderr', () => {
  it('puts stderr after stdout under a separator line, adding the missing newline', () => {
    expect(appendStderr('partial', bytes('boom\n'), 5)).toBe('partial\n--- stderr ---\nboom\n');
    expect(appendStderr('ok\n', bytes('boom'), 4)).toBe('ok\n--- stderr ---\nboom');
    expect(appendStderr('', bytes('boom\n'), 5)).toBe('--- stderr ---\nboom\n');
  });

  it('leaves stdout alone when stderr was empty', () => {
    expect(appendStderr('partial', new Uint8Array(), 0)).toBe('partial');
  });

  it('says how much came before a kept tail', () => {
    expect(appendStderr('', bytes('last line\n'), 5000)).toBe('--- stderr ---\n[the first 4990 bytes of stderr were not kept]\nlast line\n');
  });
});

describe('stderrText', () => {
  it('removes colour codes and control characters, keeps tabs, and writes line endings as \\n', () => {
    const raw = bytes('\u001b[31merror\u001b[0m:\tx\r\ny\u0007\rz');
    expect(stderrText(raw, raw.length)).toBe('error:\tx\ny\nz');
  });

  it('drops a character cut at the front of the tail and replaces invalid bytes', () => {
    const cut = bytes('é!').subarray(1); // the continuation byte of é, then !
    expect(stderrText(cut, 3)).toBe('[the first 2 bytes of stderr were not kept]\n!');
    expect(stderrText(new Uint8Array([0x61, 0xff, 0x62]), 3)).toBe('a\uFFFDb');
  });
});

describe('stderrNote', () => {
  it('is the one-line tail, or nothing', () => {
    expect(stderrNote(bytes('a\nfatal: b\n'))).toBe('stderr: a | fatal: b');
    expect(stderrNote(new Uint8Array())).toBeUndefined();
  });
});
