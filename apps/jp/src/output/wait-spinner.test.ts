import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Output } from './output.ts';
import { StatusLine } from './status-line.ts';
import { waitSpinner, WaitSpinner } from './wait-spinner.ts';

function terminal(isTTY = true) {
  const stream = { isTTY, columns: 0, written: '', write: (text: string) => ((stream.written += text), true) };
  return stream;
}

const timing = { delayMs: 200, intervalMs: 100, now: () => Date.now() };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('WaitSpinner', () => {
  it('draws nothing when the answer comes before the delay: no flash', () => {
    const stream = terminal();
    const spinner = new WaitSpinner(new StatusLine(stream), 'waiting for echo', timing);
    spinner.start();
    vi.advanceTimersByTime(150);
    spinner.stop();
    vi.advanceTimersByTime(1000);
    expect(stream.written).toBe('');
  });

  it('after the delay redraws about ten times a second with the seconds waited, and erases itself on stop', () => {
    const stream = terminal();
    const spinner = new WaitSpinner(new StatusLine(stream), 'waiting for anthropic/claude', timing);
    spinner.start();
    vi.advanceTimersByTime(1250);
    const frames = stream.written.split('\r\x1b[2K').filter(Boolean);
    expect(frames).toHaveLength(11);
    expect(frames[0]).toBe('⠋ waiting for anthropic/claude… 0.2s');
    expect(frames.at(-1)).toBe('⠋ waiting for anthropic/claude… 1.2s');
    spinner.stop();
    expect(stream.written.endsWith('1.2s\r\x1b[2K')).toBe(true);
    const before = stream.written;
    vi.advanceTimersByTime(1000);
    expect(stream.written).toBe(before);
  });

  it('erases itself when the process exits while it spins (a second Ctrl-C)', () => {
    const stream = terminal();
    const spinner = new WaitSpinner(new StatusLine(stream), 'waiting', timing);
    const before = process.listeners('exit');
    spinner.start();
    const added = process.listeners('exit').filter((listener) => !before.includes(listener));
    expect(added).toHaveLength(1);
    vi.advanceTimersByTime(300);
    // What `process.exit` would call; emitting 'exit' itself would reach the test runner's listeners too.
    (added[0] as (code: number) => void)(130);
    expect(stream.written.endsWith('\r\x1b[2K')).toBe(true);
    expect(process.listeners('exit')).toEqual(before);
  });

  it('keeps no process alive: its timers are unref’d', () => {
    const stream = terminal();
    const spinner = new WaitSpinner(new StatusLine(stream), 'waiting', { ...timing, delayMs: 0 });
    vi.useRealTimers();
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    spinner.start();
    const handle = setTimeoutSpy.mock.results[0]!.value as NodeJS.Timeout;
    expect(handle.hasRef()).toBe(false);
    spinner.stop();
    setTimeoutSpy.mockRestore();
  });
});

describe('waitSpinner', () => {
  const output = (stderr: ReturnType<typeof terminal>, format: 'text' | 'json' = 'text', quiet = false) =>
    new Output({ format, quiet, color: false }, { stdout: terminal(), stderr });

  it('shows nothing when stderr is not a terminal, with --quiet or with -F json', () => {
    for (const [isTTY, format, quiet] of [[false, 'text', false], [true, 'text', true], [true, 'json', false]] as const) {
      const stream = terminal(isTTY);
      const spinner = waitSpinner(output(stream, format, quiet), 'echo', timing);
      spinner.start();
      vi.advanceTimersByTime(1000);
      spinner.stop();
      expect(stream.written).toBe('');
    }
  });

  it('draws on the output’s status line, naming the model visibly', () => {
    const stream = terminal();
    const spinner = waitSpinner(output(stream), 'evil\x1b]0;x\x07', timing);
    spinner.start();
    vi.advanceTimersByTime(250);
    spinner.stop();
    expect(stream.written).toContain('waiting for evil\\x1b]0;x\\x07…');
    expect(stream.written.endsWith('\r\x1b[2K')).toBe(true);
  });
});
