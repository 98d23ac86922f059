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
  const handled = new Set<string>(['SIGINT']);
  const keys = new TurnKeys(stdin, (text) => written.push(text), { raise: (signal) => raised.push(signal), handled: (signal) => handled.has(signal) });
  return { stdin, raised, keys, written, handled };
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
    const { stdin, keys, raised, written } = setup();
    keys.hold();
    stdin.type('a\x03b\x04c');
    expect(raised).toEqual(['SIGINT']);
    // The turn handles SIGINT: the terminal stays raw, nothing is echoed.
    expect(stdin.raw).toBe(true);
    expect(written).toEqual([]);
    stdin.type('\x1a');
    expect(raised).toEqual(['SIGINT', 'SIGTSTP']);
    // Stopped, the terminal is the shell's: cooked mode, no bracketed paste, until SIGCONT.
    expect(stdin.raw).toBe(false);
    expect(written).toEqual(['\x1b[?2004l']);
    expect(keys.release()).toBe('abc');
  });

  it('gives the terminal back before a signal nobody handles ends jp (Ctrl-C between turns, Ctrl-\\)', () => {
    const { stdin, keys, raised, written, handled } = setup();
    handled.clear();
    keys.hold();
    stdin.type('\x1c');
    expect(raised).toEqual(['SIGQUIT']);
    expect(stdin.raw).toBe(false);
    expect(written).toEqual(['\x1b[?2004l']);
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
