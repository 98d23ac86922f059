import { describe, expect, it } from 'vitest';
import { formatBytes, terminalAskOversize } from './ask-oversize.ts';

describe('formatBytes', () => {
  it('uses binary units, whole numbers when exact', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(512 * 1024)).toBe('512 KiB');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GiB');
    expect(formatBytes(791.5 * 1024)).toBe('791.5 KiB');
  });
});

describe('terminalAskOversize', () => {
  it('offers no prompt unless stdin and stderr are terminals', () => {
    // Under the test runner stdin is not a terminal; the prompt itself is tested through a pty (file-external.e2e).
    expect(process.stdin.isTTY === true && process.stderr.isTTY === true).toBe(false);
    expect(terminalAskOversize()).toBeUndefined();
  });
});
