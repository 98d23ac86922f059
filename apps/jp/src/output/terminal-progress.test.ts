import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StatusLine } from './status-line.ts';
import { TerminalProgress } from './terminal-progress.ts';

function terminal(columns: number | undefined) {
  const stream = { isTTY: true, columns, written: '', write: (text: string) => ((stream.written += text), true) };
  return stream;
}

const timing = { slowAfterMs: 250, intervalMs: 100, now: () => Date.now() };
const lastFrame = (written: string) => written.split('\r\x1b[2K').filter(Boolean).at(-1);

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('TerminalProgress', () => {
  it('shows the files read, whole, on a terminal that reports 0 columns', () => {
    const stream = terminal(0);
    new TerminalProgress(new StatusLine(stream), 'resolving attachments', timing).update(3, 'src/some/rather/long/path/to/a/module.rs');
    expect(lastFrame(stream.written)).toBe('resolving attachments: 3 read  src/some/rather/long/path/to/a/module.rs');
  });

  it('shows the elapsed time of a slow item once it has run a while, and stops when it ends', () => {
    const stream = terminal(undefined);
    const progress = new TerminalProgress(new StatusLine(stream), 'resolving attachments', timing);
    const end = progress.begin('cmd:make test');
    vi.advanceTimersByTime(200);
    expect(stream.written).toBe('');
    vi.advanceTimersByTime(1100);
    expect(lastFrame(stream.written)).toBe('resolving attachments: 0 read  cmd:make test 1.3s');
    const second = progress.begin('https://example.com/');
    vi.advanceTimersByTime(300);
    expect(lastFrame(stream.written)).toBe('resolving attachments: 0 read  cmd:make test 1.6s (+1 more)');
    end();
    second();
    const before = stream.written;
    vi.advanceTimersByTime(1000);
    expect(stream.written).toBe(before);
    progress.done();
    expect(stream.written.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('times no file declaration: files have their count', () => {
    const stream = terminal(80);
    const progress = new TerminalProgress(new StatusLine(stream), 'resolving attachments', timing);
    progress.begin('src/');
    progress.begin('file:///tmp/x');
    vi.advanceTimersByTime(2000);
    expect(stream.written).toBe('');
  });

  it('shows the count of files with the slow item, the declaration visibly', () => {
    const stream = terminal(200);
    const progress = new TerminalProgress(new StatusLine(stream), 'resolving attachments', timing);
    progress.begin('mcp+srv+demo://x\x1b[2J');
    progress.update(2, 'a');
    expect(lastFrame(stream.written)).toBe('resolving attachments: 2 read  a');
    vi.advanceTimersByTime(500);
    expect(lastFrame(stream.written)).toBe('resolving attachments: 2 read  mcp+srv+demo://x\\x1b[2J 0.5s');
    progress.done();
  });
});
