import { describe, expect, it } from 'vitest';
import { Output, type OutputStreams } from './output.ts';

const ESC_TEXT = 'a\x1b]52;c;eA==\x07b\u009b2J\u202ec';
const SHOWN = 'a\\x1b]52;c;eA==\\x07b\\x9b2J\\u202ec';

function capture(tty: { stdout: boolean; stderr: boolean }) {
  const written = { stdout: '', stderr: '' };
  const streams: OutputStreams = {
    stdout: { isTTY: tty.stdout, write: (text: string) => (written.stdout += text) },
    stderr: { isTTY: tty.stderr, write: (text: string) => (written.stderr += text) },
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
