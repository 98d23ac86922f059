import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from './conversation-store.ts';

const store = () => new ConversationStore(mkdtempSync(path.join(tmpdir(), 'jp-store-')));
const start = { type: 'turn_start' as const, timestamp: '2026-01-01T00:00:00.000Z' };

describe('conversation store', () => {
  it('creates conversations whole, with unique time-sorted ids', async () => {
    const s = store();
    const ids = await Promise.all(Array.from({ length: 40 }, () => s.create({ baseConfig: { a: 1 }, events: [start], turnCount: 1 }, s.openContent())));
    expect(new Set(ids).size).toBe(40);
    expect(readdirSync(s.root).sort()).toEqual([...ids].sort());
    const id = ids[0]!;
    expect(s.baseConfig(id)).toEqual({ a: 1 });
    expect((await s.events(id, s.openContent())).events).toEqual([start]);
    expect(s.metadata(id)).toMatchObject({ id, turnCount: 1 });
  });

  it('resolves ids exactly or by unambiguous prefix', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [], turnCount: 0 }, s.openContent());
    expect(s.resolveId(id)).toBe(id);
    expect(s.resolveId(id.slice(0, 12))).toBe(id);
    expect(() => s.resolveId('nope')).toThrow(/no conversation nope/);
    await s.create({ baseConfig: {}, events: [], turnCount: 0 }, s.openContent());
    expect(() => s.resolveId('0')).toThrow(/ambiguous/);
  });

  it('lists by last activity, newest first', async () => {
    const s = store();
    const older = await s.create({ baseConfig: {}, events: [], turnCount: 0, title: 'older' }, s.openContent());
    const newer = await s.create({ baseConfig: {}, events: [], turnCount: 0, title: 'newer' }, s.openContent());
    s.writeMetadata({ ...s.metadata(older), lastActivityAt: '2099-01-01T00:00:00.000Z' });
    expect(s.list().map((m) => m.id)).toEqual([older, newer]);
  });

  it('keeps the active pointer and forgets it when the conversation is removed', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [], turnCount: 0 }, s.openContent());
    expect(s.activeId()).toBeUndefined();
    s.setActive(id);
    expect(readFileSync(path.join(s.jpDir, 'local', 'active'), 'utf8')).toBe(`${id}\n`);
    expect(s.activeId()).toBe(id);
    s.remove(id);
    expect(s.activeId()).toBeUndefined();
    expect(readdirSync(s.root)).toEqual([]);
  });

  it('fails an append on a damaged metadata.json before a blob or a line is written', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [start], turnCount: 1 }, s.openContent());
    const events = readFileSync(path.join(s.dir(id), 'events.jsonl'), 'utf8');
    writeFileSync(path.join(s.dir(id), 'metadata.json'), '{broken');
    const content = s.openContent();
    const request = {
      type: 'chat_request' as const,
      timestamp: start.timestamp,
      content: 'x',
      resources: [content.stage({ uri: 'stdin:x', name: 'stdin', mimeType: 'text/plain', text: 'y'.repeat(5000) })],
    };
    await expect(s.append(id, [start, request], content)).rejects.toThrow(
      new RegExp(`^\\.jp/conversations/${id}/metadata\\.json is missing or damaged .*; repair it`),
    );
    expect(readFileSync(path.join(s.dir(id), 'events.jsonl'), 'utf8')).toBe(events);
    expect(existsSync(path.join(s.jpDir, 'blobs'))).toBe(false);
    expect(readdirSync(s.dir(id)).sort()).toEqual(['base-config.json', 'events.jsonl', 'metadata.json']);
  });
});
