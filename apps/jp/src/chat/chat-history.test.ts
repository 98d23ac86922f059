import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendChatHistory, chatHistoryFile, loadChatHistory } from './chat-history.ts';

describe('chat history', () => {
  it('lives under the XDG state directory, outside any workspace', () => {
    expect(chatHistoryFile({ XDG_STATE_HOME: '/s', HOME: '/h' })).toBe('/s/jp/chat-history');
    expect(chatHistoryFile({ HOME: '/h' })).toBe('/h/.local/state/jp/chat-history');
    expect(chatHistoryFile({ XDG_STATE_HOME: 'relative', HOME: '/h' })).toBe('/h/.local/state/jp/chat-history');
  });

  it('is created readable by its owner only, and keeps multi-line messages whole, newest first', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'jp-hist-')), 'state', 'jp', 'chat-history');
    appendChatHistory(file, 'first');
    appendChatHistory(file, 'two\nlines');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadChatHistory(file)).toEqual(['two\nlines', 'first']);
  });

  it('tightens a file that was readable by others', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jp-hist-'));
    const file = path.join(dir, 'chat-history');
    writeFileSync(file, '"old"\n', { mode: 0o644 });
    appendChatHistory(file, 'new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('"old"\n"new"\n');
  });

  it('skips torn lines and a missing file', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'jp-hist-')), 'h');
    expect(loadChatHistory(file)).toEqual([]);
    writeFileSync(file, '"a"\n{"x":1}\n"b\n"c"\n');
    expect(loadChatHistory(file)).toEqual(['c', 'a']);
  });
});
