import { describe, expect, it } from 'vitest';
import { colorEnabled, type ColorInputs } from './color-choice.ts';

const tty: ColorInputs = { isTTY: true, color: true, format: 'text', env: {} };
const pipe: ColorInputs = { ...tty, isTTY: false };

describe('colorEnabled', () => {
  it('colours a terminal and not a pipe, a file or an unknown stream', () => {
    expect(colorEnabled(tty)).toBe(true);
    expect(colorEnabled(pipe)).toBe(false);
    expect(colorEnabled({ ...tty, isTTY: undefined })).toBe(false);
  });

  it('never colours JSON, even on a terminal or with FORCE_COLOR', () => {
    expect(colorEnabled({ ...tty, format: 'json' })).toBe(false);
    expect(colorEnabled({ ...pipe, format: 'json', env: { FORCE_COLOR: '1' } })).toBe(false);
  });

  it('--no-color turns it off, even with FORCE_COLOR', () => {
    expect(colorEnabled({ ...tty, color: false })).toBe(false);
    expect(colorEnabled({ ...tty, color: false, env: { FORCE_COLOR: '1' } })).toBe(false);
  });

  it('NO_COLOR with any non-empty value turns it off; empty, it is ignored (no-color.org)', () => {
    expect(colorEnabled({ ...tty, env: { NO_COLOR: '1' } })).toBe(false);
    expect(colorEnabled({ ...tty, env: { NO_COLOR: 'false' } })).toBe(false);
    expect(colorEnabled({ ...tty, env: { NO_COLOR: '' } })).toBe(true);
  });

  it('FORCE_COLOR colours a pipe and outranks NO_COLOR; FORCE_COLOR=0 or false turns colour off', () => {
    expect(colorEnabled({ ...pipe, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(colorEnabled({ ...pipe, env: { FORCE_COLOR: '' } })).toBe(true);
    expect(colorEnabled({ ...pipe, env: { FORCE_COLOR: '3', NO_COLOR: '1' } })).toBe(true);
    expect(colorEnabled({ ...tty, env: { FORCE_COLOR: '0' } })).toBe(false);
    expect(colorEnabled({ ...tty, env: { FORCE_COLOR: 'false' } })).toBe(false);
  });

  it('TERM=dumb is a terminal without colour, unless forced', () => {
    expect(colorEnabled({ ...tty, env: { TERM: 'dumb' } })).toBe(false);
    expect(colorEnabled({ ...tty, env: { TERM: 'dumb', FORCE_COLOR: '1' } })).toBe(true);
  });
});
