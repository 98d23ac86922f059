import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeAttachments } from './complete-attachments.ts';

/** A `.jp/` with one conversation `c1` (active) whose events.jsonl holds these lines. */
function workspace(events: unknown[], configToml = ''): string {
  const jpDir = path.join(mkdtempSync(path.join(tmpdir(), 'jp-complete-attachments-')), '.jp');
  mkdirSync(path.join(jpDir, 'conversations', 'c1'), { recursive: true });
  writeFileSync(path.join(jpDir, 'conversations', 'c1', 'metadata.json'), '{"createdAt":"2026-01-01T00:00:00Z"}');
  writeFileSync(path.join(jpDir, 'conversations', 'c1', 'events.jsonl'), events.map((event) => `${typeof event === 'string' ? event : JSON.stringify(event)}\n`).join(''));
  writeFileSync(path.join(jpDir, 'config.toml'), configToml);
  mkdirSync(path.join(jpDir, 'local'), { recursive: true });
  writeFileSync(path.join(jpDir, 'local', 'active'), 'c1\n');
  return jpDir;
}

const delta = (attachments: string[], extra: object = {}) => ({ type: 'config_delta', timestamp: 't', delta: { conversation: { attachments } }, ...extra });

describe('completeAttachments', () => {
  it('offers the last list the conversation set, skipping damaged lines and records of the files', () => {
    const jpDir = workspace([delta(['a.md', 'b.md']), '{"type":"config_delta", damaged "attachments"', delta(['b.md']), delta(['files.md'], { source: 'files' })]);
    expect(completeAttachments({ jpDir })).toEqual([{ value: 'b.md', description: '#1' }]);
    expect(completeAttachments({ jpDir, id: 'c' })).toEqual([{ value: 'b.md', description: '#1' }]);
  });

  it("falls back to the config file's declarations when the conversation set none", () => {
    const jpDir = workspace([{ type: 'turn_start', timestamp: 't' }], '[conversation]\nattachments = ["src/", "README.md"]\n');
    expect(completeAttachments({ jpDir }).map((candidate) => candidate.value)).toEqual(['src/', 'README.md']);
  });

  it('offers nothing outside a workspace and throws for an unknown --id (jp __complete prints nothing then)', () => {
    expect(completeAttachments({ jpDir: undefined })).toEqual([]);
    expect(() => completeAttachments({ jpDir: workspace([]), id: 'zz' })).toThrow();
  });
});
