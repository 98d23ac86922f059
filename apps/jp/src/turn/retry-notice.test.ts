import { afterEach, describe, expect, it, vi } from 'vitest';
import { Output } from '../output/output.ts';
import { retryNotice } from './retry-notice.ts';

/** A stand-in for stderr that records what is written. */
function fakeStream(isTTY: boolean): NodeJS.WriteStream & { written: string } {
  const stream = { isTTY, columns: 60, written: '', write: (text: string) => ((stream.written += text), true) };
  return stream as unknown as NodeJS.WriteStream & { written: string };
}

const retry = { attempt: 1, retries: 3, delayMs: 1200, message: 'rate limited (429)' };
/** An Output whose stderr is `stream` (stdout is the process's, so JSON lines can be spied on). */
const output = (format: 'text' | 'json', stream: NodeJS.WriteStream, quiet = false) => new Output({ format, quiet, color: false }, { stdout: process.stdout, stderr: stream });

afterEach(() => vi.restoreAllMocks());

describe('retry notices', () => {
  it('redraw one line in place on a terminal, erased once the answer comes', () => {
    const stream = fakeStream(true);
    const notice = retryNotice(output('text', stream), { verbose: false });
    notice.show(retry);
    notice.show({ ...retry, attempt: 2 });
    notice.clear();
    notice.clear();
    expect(stream.written).toBe(
      '\r\x1b[2Kjp: rate limited (429); retrying in 1.2 s (1 of 3)' + '\r\x1b[2Kjp: rate limited (429); retrying in 1.2 s (2 of 3)' + '\r\x1b[2K',
    );
  });

  it('cut a line wider than the terminal', () => {
    const stream = fakeStream(true);
    retryNotice(output('text', stream), { verbose: false }).show({ ...retry, message: 'x'.repeat(200) });
    expect(stream.written.replace('\r\x1b[2K', '')).toHaveLength(59);
  });

  it('say nothing on a stderr that is not a terminal, or with --quiet; a line per retry with -v', () => {
    for (const [quiet, verbose, isTTY] of [[false, false, false], [true, true, true]] as const) {
      const stream = fakeStream(isTTY);
      retryNotice(output('text', stream, quiet), { verbose }).show(retry);
      expect(stream.written).toBe('');
    }
    const stream = fakeStream(false);
    const notice = retryNotice(output('text', stream), { verbose: true });
    notice.show(retry);
    notice.clear();
    expect(stream.written).toBe('jp: rate limited (429); retrying in 1.2 s (1 of 3)\n');
  });

  it('are a JSON line on stdout with -F json, nothing on stderr', () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stream = fakeStream(true);
    retryNotice(output('json', stream), { verbose: true }).show(retry);
    expect(stdout).toHaveBeenCalledWith(`${JSON.stringify({ type: 'retry', ...retry })}\n`);
    expect(stream.written).toBe('');
  });
});
