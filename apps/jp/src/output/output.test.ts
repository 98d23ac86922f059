import { describe, expect, it } from 'vitest';
import { Output, type OutputStreams } from './output.ts';

const ESC_TEXT = 'a\x1b]52;c;eA==\x07b\u009b2J\u202ec';
const SHOWN = 'a\\x1b]52;c;eA==\\x07b\\x9b2J\\u202ec';

function capture(tty: { stdout: boolean; stderr: boolean }) {
  const written = { stdout: '', stderr: '' };
  const streams: OutputStreams = {
    stdout: { isTTY: tty.stdout, write: (text: string) => (written.stdout += text) },
    stderr: { isTTY: tty.stderr, write: (text: string) => (written.stderr += text) },
    // Colour is tested below; here only what reaches the terminal.
    env: { NO_COLOR: '1' },
  };
  return { written, output: (format: 'text' | 'json' = 'text', quiet = false) => new Output({ format, quiet, color: true }, streams) };
}

describe('Output', () => {
  it('shows data visibly when stdout is a terminal', () => {
    const { written, output } = capture({ stdout: true, stderr: true });
    const out = output();
    out.write(ESC_TEXT.slice(0, 2));
    out.write(ESC_TEXT.slice(2));
    out.line(ESC_TEXT);
    out.aside(ESC_TEXT);
    expect(written.stdout).toBe(`${SHOWN}${SHOWN}\n`);
    expect(written.stderr).toBe(SHOWN);
  });

  it('writes data exactly when its stream is not a terminal', () => {
    const { written, output } = capture({ stdout: false, stderr: false });
    const out = output();
    out.write(ESC_TEXT);
    out.line(ESC_TEXT);
    out.aside(ESC_TEXT);
    expect(written.stdout).toBe(`${ESC_TEXT}${ESC_TEXT}\n`);
    expect(written.stderr).toBe(ESC_TEXT);
  });

  it('always shows notes, warnings, errors and details visibly: they are for people, wherever stderr goes', () => {
    for (const tty of [true, false]) {
      const { written, output } = capture({ stdout: tty, stderr: tty });
      const out = output();
      out.note(ESC_TEXT);
      out.warn(ESC_TEXT);
      out.error({ code: 'x', exitCode: 3, message: ESC_TEXT });
      out.detail(`Error: ${ESC_TEXT}\n    at somewhere`);
      expect(written.stderr).toBe(`${SHOWN}\njp: warning: ${SHOWN}\njp: ${SHOWN}\nError: ${SHOWN}\n    at somewhere\n`);
      expect(written.stdout).toBe('');
    }
  });

  it('keeps the exact text in JSON, with nothing a terminal would act on', () => {
    const { written, output } = capture({ stdout: true, stderr: true });
    const out = output('json');
    out.data({ text: ESC_TEXT });
    out.warn(ESC_TEXT);
    out.error({ code: 'provider_error', exitCode: 3, message: ESC_TEXT });
    expect(JSON.parse(written.stdout)).toEqual({ text: ESC_TEXT });
    expect(written.stderr.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual([
      { warning: ESC_TEXT },
      { error: { code: 'provider_error', exitCode: 3, message: ESC_TEXT } },
    ]);
    expect(written.stdout + written.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('silenced: no stdout, stderr still goes through the same rules', () => {
    const { written, output } = capture({ stdout: true, stderr: true });
    const quiet = output().silenced();
    quiet.line(ESC_TEXT);
    quiet.data({ a: 1 });
    quiet.warn(ESC_TEXT);
    quiet.aside(ESC_TEXT);
    expect(written.stdout).toBe('');
    expect(written.stderr).toBe(`jp: warning: ${SHOWN}\n${SHOWN}`);
  });
});

describe('Output colours', () => {
  const BOLD_RED = (text: string) => `\x1b[1m\x1b[31m${text}\x1b[39m\x1b[22m`;

  function streams(tty: { stdout: boolean; stderr: boolean }, env: Record<string, string> = {}) {
    const written = { stdout: '', stderr: '' };
    const s: OutputStreams = {
      stdout: { isTTY: tty.stdout, write: (text: string) => (written.stdout += text) },
      stderr: { isTTY: tty.stderr, write: (text: string) => (written.stderr += text) },
      env,
    };
    return { written, s };
  }

  it('styles spans on a terminal after making their text visible: the only escapes are its own SGR codes', () => {
    const { written, s } = streams({ stdout: true, stderr: true });
    new Output({ format: 'text', quiet: false, color: true }, s).line(['dim', ESC_TEXT], ' ', ['bad', 'x']);
    expect(written.stdout).toBe(`\x1b[2m${SHOWN}\x1b[22m \x1b[31mx\x1b[39m\n`);
  });

  it('decides per stream: an error on a terminal is red while the piped stdout stays plain', () => {
    const { written, s } = streams({ stdout: false, stderr: true });
    const out = new Output({ format: 'text', quiet: false, color: true }, s);
    out.line(['heading', 'title']);
    out.error({ code: 'x', exitCode: 1, message: 'broken' });
    expect(written.stdout).toBe('title\n');
    expect(written.stderr).toBe(`${BOLD_RED('jp:')} broken\n`);
  });

  it('prints plain text with --no-color, NO_COLOR or -F json, and colours a pipe with FORCE_COLOR', () => {
    const cases: Array<[{ format: 'text' | 'json'; color: boolean }, { stdout: boolean; stderr: boolean }, Record<string, string>, boolean]> = [
      [{ format: 'text', color: false }, { stdout: true, stderr: true }, {}, false],
      [{ format: 'text', color: true }, { stdout: true, stderr: true }, { NO_COLOR: '1' }, false],
      [{ format: 'json', color: true }, { stdout: true, stderr: true }, {}, false],
      [{ format: 'text', color: true }, { stdout: false, stderr: false }, { FORCE_COLOR: '1' }, true],
    ];
    for (const [options, tty, env, coloured] of cases) {
      const { written, s } = streams(tty, env);
      const out = new Output({ ...options, quiet: false }, s);
      out.error({ code: 'x', exitCode: 1, message: 'broken' });
      expect(written.stderr.includes('\x1b['), JSON.stringify({ options, tty, env })).toBe(coloured);
    }
  });
});
