import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationWatcher } from './watch-conversations.ts';

const watchers: ConversationWatcher[] = [];
afterEach(() => {
  for (const watcher of watchers.splice(0)) watcher.close();
});

function conversation(root: string, id: string): void {
  mkdirSync(path.join(root, id), { recursive: true });
  writeFileSync(path.join(root, id, 'metadata.json'), '{"createdAt":"2026-01-01T00:00:00Z"}');
  writeFileSync(path.join(root, id, 'events.jsonl'), '');
}

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe.each([
  ['watching', false],
  ['polling', true],
])('ConversationWatcher, %s', (_mode, poll) => {
  it('notices conversations added and removed, and new turns in the followed ones only', async () => {
    const root = path.join(mkdtempSync(path.join(tmpdir(), 'jp-watch-')), 'conversations');
    conversation(root, 'a');
    conversation(root, 'b');
    const seen: string[] = [];
    const watcher = new ConversationWatcher(root, { listChanged: () => seen.push('list'), updated: (id) => seen.push(id) }, { poll, pollMs: 100 });
    watchers.push(watcher);
    expect(watcher.mode).toBe(poll ? 'poll' : 'watch');
    watcher.follow('a');
    appendFileSync(path.join(root, 'a', 'events.jsonl'), '{"type":"turn_start","timestamp":"x"}\n');
    appendFileSync(path.join(root, 'b', 'events.jsonl'), '{"type":"turn_start","timestamp":"x"}\n');
    await until(() => seen.includes('a'));
    conversation(root, 'c');
    await until(() => seen.includes('list'));
    rmSync(path.join(root, 'b'), { recursive: true });
    await until(() => seen.filter((what) => what === 'list').length === 2);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(seen).toEqual(['a', 'list', 'list']);
  });
});

it('polls when there is no conversations directory to watch', () => {
  const watcher = new ConversationWatcher(path.join(mkdtempSync(path.join(tmpdir(), 'jp-watch-')), 'conversations'), { listChanged: () => undefined, updated: () => undefined });
  watchers.push(watcher);
  expect(watcher.mode).toBe('poll');
});
