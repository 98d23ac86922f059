import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { activeFile, readActiveId, writeActiveId } from './active-conversation.ts';

const jpDir = () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'jp-active-')), '.jp');
  mkdirSync(dir);
  return dir;
};

describe('active conversation pointer', () => {
  it('is written under .jp/local/ and read back', () => {
    const dir = jpDir();
    expect(readActiveId(dir)).toBeUndefined();
    writeActiveId(dir, 'abc');
    expect(readActiveId(dir)).toBe('abc');
    expect(activeFile(dir)).toBe(path.join(dir, 'local', 'active'));
  });

  it('reads the legacy .jp/active when the local one is missing, and drops it once rewritten', () => {
    const dir = jpDir();
    writeFileSync(path.join(dir, 'active'), 'old\n');
    expect(readActiveId(dir)).toBe('old');
    writeActiveId(dir, 'new');
    expect(readActiveId(dir)).toBe('new');
    expect(existsSync(path.join(dir, 'active'))).toBe(false);
  });
});
