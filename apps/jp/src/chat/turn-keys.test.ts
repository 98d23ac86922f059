import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { withTerminal } from '../output/terminal-handover.ts';
import { TurnKeys } from './turn-keys.ts';

/** A stdin stand-in that records its mode and whether anyone reads it. */
class FakeStdin extends EventEmitter {
  raw = false;
  flowing = false;
  setRawMode(raw: boolean) {
    this.raw = raw;
  }
  resume() {
    this.flowing = true;
  }
  pause() {
    this.flowing = false;
  }
  type(text: string) {
    this.emit('data', Buffer.from(text));
  }
}

function setup() {
  const stdin = new FakeStdin();
  const raised: string[] = [];
  const written: string[] = [];
  const keys = new TurnKeys(stdin, (text) => written.push(text), { raise: (signal) => raised.push(signal) });
  return { stdin, raised, keys, written };
}

describe('TurnKeys', () => {
  it('holds the keys in raw mode (nothing echoed) and gives back what was typed', () => {
    const { stdin, keys } = setup();
    keys.hold();
    expect(stdin.raw).toBe(true);
    expect(stdin.flowing).toBe(true);
    stdin.type('next ques');
    stdin.type('tion\r');
    expect(keys.release()).toBe('next question\r');
    // Still raw, for the prompt that follows: no moment for the terminal to echo a key.
    expect(stdin.raw).toBe(true);
    expect(stdin.flowing).toBe(false);
    expect(stdin.listenerCount('data')).toBe(0);
    expect(keys.release()).toBe('');
  });

  it('raises the signals a terminal would for Ctrl-C, Ctrl-\\ and Ctrl-Z, and drops Ctrl-D', () => {
    const { stdin, keys, raised } = setup();
    keys.hold();
    stdin.type('a\x03b\x1c\x04c');
    expect(raised).toEqual(['SIGINT', 'SIGQUIT']);
    stdin.type('\x1a');
    expect(raised).toEqual(['SIGINT', 'SIGQUIT', 'SIGTSTP']);
    // Stopped, the terminal is the shell's: cooked mode until SIGCONT.
    expect(stdin.raw).toBe(false);
    expect(keys.release()).toBe('abc');
  });

  it('steps aside, in cooked mode and reading nothing, while a question or the editor has the terminal', async () => {
    const { stdin, keys, written } = setup();
    keys.hold();
    stdin.type('x');
    const during = await withTerminal(async () => {
      stdin.type('the answer to a question');
      return { raw: stdin.raw, listeners: stdin.listenerCount('data') };
    });
    expect(during).toEqual({ raw: false, listeners: 0 });
    expect(stdin.raw).toBe(true);
    // Bracketed paste is off while the terminal is someone else's: an editor would see the markers.
    expect(written).toEqual(['\x1b[?2004l', '\x1b[?2004h']);
    stdin.type('y');
    expect(keys.release()).toBe('xy');
    // Released, nobody holds the terminal: a question later gives nothing back to it.
    stdin.setRawMode(false);
    await withTerminal(async () => undefined);
    expect(stdin.raw).toBe(false);
  });
});
