import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxedGit } from './__fixtures__/sandboxed-git.ts';
import { activityOfText } from './conversation-activity.ts';
import { ConversationStore } from './conversation-store.ts';

// Two clones store turns in one conversation through the store itself, then git merges them: the
// only files a turn changes are events.jsonl (union-merged) and blobs (content-addressed).
const { root, git } = sandboxedGit('jp-git-share-');

const turn = (query: string, at: string) => [
  { type: 'turn_start' as const, timestamp: at },
  { type: 'chat_request' as const, timestamp: at, content: query, resources: [] },
];

async function addTurn(clone: string, id: string, query: string, at: string, attach?: string): Promise<void> {
  const store = new ConversationStore(path.join(clone, '.jp'));
  const content = store.openContent();
  const [start, request] = turn(query, at);
  const resources = attach === undefined ? [] : [content.stage({ uri: 'file:shared.txt', name: 'shared.txt', mimeType: 'text/plain', text: attach })];
  await store.append(id, [start!, { ...request!, resources }], content);
  git(clone, 'add', '-A');
  git(clone, 'commit', '-qm', query);
}

const queries = (clone: string, id: string) =>
  readFileSync(path.join(clone, '.jp', 'conversations', id, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.includes('"chat_request"'))
    .map((line) => (JSON.parse(line) as { content: string }).content)
    .sort();

describe('two clones sharing .jp through git (real git)', () => {
  it('both add turns (one attaching the same large file): the merge has no conflict, every turn once, turn count from the events', async () => {
    const base = path.join(root, 'turns');
    const origin = path.join(base, 'origin');
    mkdirSync(origin, { recursive: true });
    git(origin, 'init', '-q');
    const store = new ConversationStore(path.join(origin, '.jp'));
    const id = await store.create({ baseConfig: {}, events: turn('q0', '2099-01-01T00:00:00.000Z'), turnCount: 1 }, store.openContent());
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'start');
    git(origin, 'checkout', '-q', '--detach');
    git(base, 'clone', '-q', origin, 'a');
    git(base, 'clone', '-q', origin, 'b');
    const [a, b] = [path.join(base, 'a'), path.join(base, 'b')];
    const big = 'shared text\n'.repeat(2000);
    await addTurn(a, id, 'a1', '2099-01-02T00:00:00.000Z', big);
    await addTurn(a, id, 'a2', '2099-01-03T00:00:00.000Z');
    await addTurn(b, id, 'b1', '2099-01-02T12:00:00.000Z', big);
    git(b, 'push', '-q', 'origin', 'HEAD:main');
    git(a, 'pull', '-q', '--no-edit', 'origin', 'main');

    expect(git(a, 'status', '--porcelain', '--', '.jp')).toBe('');
    expect(queries(a, id)).toEqual(['a1', 'a2', 'b1', 'q0']);
    const merged = new ConversationStore(path.join(a, '.jp'));
    expect(merged.metadata(id)).toMatchObject({ turnCount: 4, lastActivityAt: '2099-01-03T00:00:00.000Z' });
    // Every referenced blob is there: the events load, each blob read and verified.
    const loaded = await merged.events(id, merged.openContent());
    expect(loaded.events.filter((event) => event.type === 'turn_start')).toHaveLength(4);
  });
});

describe('activityOfText', () => {
  it('counts turn_start lines and takes the latest timestamp, whatever the line order', () => {
    const lines = [turn('x', '2026-01-03T00:00:00.000Z'), turn('"type":"turn_start"', '2026-01-01T00:00:00.000Z')].flat();
    expect(activityOfText(lines.map((line) => JSON.stringify(line)).join('\n'))).toEqual({ turnCount: 2, lastActivityAt: '2026-01-03T00:00:00.000Z' });
    expect(activityOfText('')).toEqual({ turnCount: 0, lastActivityAt: undefined });
  });
});
