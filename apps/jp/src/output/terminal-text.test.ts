import { describe, expect, it } from 'vitest';
import { fromVisibleName, terminalSafeJson, visibleName, visibleText } from './terminal-text.ts';

const BIDI = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
/** Anything a terminal would act on, in the output of either function. */
const ACTIONABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const HOSTILE = [
  '\x1b]52;c;cm0gLXJmIH4=\x07', // OSC 52: write the clipboard
  '\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\', // OSC 8: a hyperlink
  '\x1b[2J\x1b[H', // clear the screen, cursor home
  '\x1b]0;owned\x07', // OSC 0: window title
  '\u009b2J', // C1 CSI
  '\u009d0;owned\u009c', // C1 OSC … ST
  'safe\rrm -rf ~\b\b', // overwrite the line
  'abc\u202edcba\u202c', // right-to-left override
].join(' ');

describe('visibleText', () => {
  it('shows every C0 control but \\t and \\n, DEL and every C1 control as \\xNN', () => {
    for (let code = 0; code <= 0x9f; code++) {
      const character = String.fromCharCode(code);
      const expected = code === 0x09 || code === 0x0a || (code >= 0x20 && code < 0x7f) ? character : `\\x${code.toString(16).padStart(2, '0')}`;
      expect(visibleText(`a${character}b`), `U+${code.toString(16)}`).toBe(`a${expected}b`);
    }
    expect(visibleText('\x1b')).toBe('\\x1b');
    expect(visibleText('\u009b')).toBe('\\x9b');
    expect(visibleText('\x7f')).toBe('\\x7f');
    expect(visibleText('\r\n')).toBe('\\x0d\n');
  });

  it('shows the bidi embedding, override and isolate controls as \\uNNNN, and keeps the direction marks', () => {
    for (const code of BIDI) expect(visibleText(String.fromCharCode(code))).toBe(`\\u${code.toString(16)}`);
    expect(visibleText('\u200e\u200f\u061c')).toBe('\u200e\u200f\u061c');
  });

  it('keeps text that holds nothing to act on exactly, the same string', () => {
    const samples = ['', 'plain ascii', 'tab\tand\nnewline\n', 'Título — 日本語 🦀 é\u0301', 'العربية עברית', '\u00a0\u00ad\u2028', 'already visible: \\x1b[2J \\u202e ^[ ␛'];
    for (const text of samples) expect(visibleText(text)).toBe(text);
  });

  it('is idempotent: what it shows is already visible', () => {
    const once = visibleText(HOSTILE);
    expect(once).not.toMatch(ACTIONABLE);
    expect(visibleText(once)).toBe(once);
  });

  it('gives the same text however a stream splits it, so a sequence split across deltas cannot get through', () => {
    const whole = visibleText(HOSTILE);
    for (let cut = 0; cut <= HOSTILE.length; cut++) {
      expect(visibleText(HOSTILE.slice(0, cut)) + visibleText(HOSTILE.slice(cut))).toBe(whole);
    }
    const oneByOne = [...HOSTILE].map(visibleText).join('');
    expect(oneByOne).toBe(whole);
  });

  it('keeps a lone surrogate as it is (no control to show)', () => {
    expect(visibleText('a\ud800b')).toBe('a\ud800b');
  });
});

describe('terminalSafeJson', () => {
  const everything = Array.from({ length: 0xa0 }, (_, code) => String.fromCharCode(code)).join('') + BIDI.map((code) => String.fromCharCode(code)).join('');

  it('parses back to exactly the same value', () => {
    const value = { text: everything, hostile: HOSTILE, nested: [HOSTILE, { [HOSTILE]: 1 }], n: 3, none: null };
    expect(JSON.parse(terminalSafeJson(value))).toEqual(value);
    expect(JSON.parse(terminalSafeJson(`\\${'\u009b'}`))).toBe('\\\u009b');
  });

  it('holds nothing a terminal acts on (JSON escapes C0 itself; DEL, C1 and bidi are escaped here)', () => {
    const json = terminalSafeJson({ text: everything, hostile: HOSTILE });
    expect(json).not.toMatch(ACTIONABLE);
    expect(json).toContain('\\u009b');
    expect(json).toContain('\\u202e');
    expect(json).toContain('\\u007f');
  });

  it('is JSON.stringify for everything else', () => {
    const value = { a: 'Título 🦀', b: [1, true, null], c: 'line\nbreak' };
    expect(terminalSafeJson(value)).toBe(JSON.stringify(value));
  });
});

describe('visibleName and fromVisibleName', () => {
  it('writes a name on one line, line breaks and tabs included, and reads it back exactly', () => {
    const name = `a\x1b]0;owned\x07\tb\nc\u009b2J\u202eevil\x7f.txt`;
    expect(visibleName(name)).toBe('a\\x1b]0;owned\\x07\\x09b\\x0ac\\x9b2J\\u202eevil\\x7f.txt');
    expect(visibleName(name)).not.toMatch(/[\t\n]/);
    expect(visibleName(name)).not.toMatch(ACTIONABLE);
    expect(fromVisibleName(visibleName(name))).toBe(name);
    expect(fromVisibleName(visibleName(HOSTILE))).toBe(HOSTILE);
  });

  it('leaves other backslashes alone: printable escapes and unknown \\u forms are not controls', () => {
    expect(fromVisibleName('C:\\x41\\u0041\\u2028\\xzz\\')).toBe('C:\\x41\\u0041\\u2028\\xzz\\');
    expect(fromVisibleName('\\x1B')).toBe('\\x1B');
  });
});
