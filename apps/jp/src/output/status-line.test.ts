import { describe, expect, it } from 'vitest';
import { Output } from './output.ts';
import { fitLine, StatusLine } from './status-line.ts';

const long = 'x'.repeat(300);

describe('fitLine', () => {
  it('cuts a line one column short of the terminal, ending in an ellipsis', () => {
    expect(fitLine(long, 60)).toBe(`${'x'.repeat(58)}…`);
    expect(fitLine('short', 60)).toBe('short');
  });

  it('takes a terminal reporting 0 or no columns as 80 wide instead of cutting the line to nothing', () => {
    expect(fitLine(long, 0)).toHaveLength(79);
    expect(fitLine(long, undefined)).toHaveLength(79);
    expect(fitLine('resolving attachments: 3 read  src/main.rs', 0)).toBe('resolving attachments: 3 read  src/main.rs');
  });

  it('keeps at least 20 columns on a very narrow terminal', () => {
    expect(fitLine(long, 5)).toHaveLength(20);
  });
});

describe('StatusLine', () => {
  it('redraws in place and erases only what it drew', () => {
    let written = '';
    const line = new StatusLine({ columns: 0, write: (text: string) => (written += text) });
    line.clear();
    expect(written).toBe('');
    line.draw('one');
    line.draw('two');
    line.clear();
    line.clear();
    expect(written).toBe('\r\x1b[2Kone\r\x1b[2Ktwo\r\x1b[2K');
  });

  it('is one per Output, shared by its silenced copy: whoever clears it erases what another drew', () => {
    let written = '';
    const stream = { isTTY: true, write: (text: string) => (written += text) };
    const output = new Output({ format: 'text', quiet: false, color: false }, { stdout: stream, stderr: stream });
    expect(output.silenced().status).toBe(output.status);
    output.status.draw('progress');
    output.silenced().status.clear();
    expect(written).toBe('\r\x1b[2Kprogress\r\x1b[2K');
  });
});
