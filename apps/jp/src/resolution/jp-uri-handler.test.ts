import { appendFileSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_LIMITS, type HandlerContext } from '@jp/attachments';
import type { ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../store/conversation-store.ts';
import { createJpUriHandler } from './jp-uri-handler.ts';
import { parseJpUri } from './jp-uri.ts';

const T = '2026-01-01T00:00:00.000Z';

async function workspace() {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-uri-')));
  const jpDir = path.join(root, '.jp');
  const store = new ConversationStore(jpDir);
  const events = [
    { type: 'turn_start', timestamp: T },
    { type: 'chat_request', timestamp: T, content: `what is in ${root}/notes.md?`, resources: [{ uri: `file://${root}/notes.md`, name: 'notes.md', mimeType: 'text/markdown', text: '# notes\n' }] },
    { type: 'chat_response', timestamp: T, message: 'notes' },
  ] as ConversationEvent[];
  const id = await store.create({ baseConfig: {}, title: 'Notes', turnCount: 1, events }, store.openContent());
  const ctx: HandlerContext = { workspaceRoot: root, cwd: root, limits: DEFAULT_LIMITS, logger: { warn: () => undefined } };
  return { root, jpDir, id, ctx, handler: createJpUriHandler(jpDir) };
}

describe('parseJpUri', () => {
  it('reads the three forms and refuses anything else under jp:', () => {
    expect(parseJpUri('jp://conversation/abc')).toEqual({ id: 'abc', kind: 'transcript' });
    expect(parseJpUri('jp://conversation/abc~k/turn/3')).toEqual({ id: 'abc~k', kind: 'turn', turn: 3 });
    expect(parseJpUri(`jp://conversation/abc/resource/${'A'.repeat(64)}`)).toEqual({ id: 'abc', kind: 'snapshot', sha256: 'a'.repeat(64) });
    expect(() => parseJpUri('jp://conversations/abc')).toThrow(expect.objectContaining({ exitCode: 4, message: expect.stringContaining('the forms are jp://conversation/{id}') }));
    expect(() => parseJpUri('jp://conversation/abc/turn/x')).toThrow(expect.objectContaining({ exitCode: 4 }));
  });
});

describe('the jp:// attachment handler', () => {
  it('canonicalises a prefix to the full id, and renders a turn as jp mcp serve does (no absolute path)', async () => {
    const { id, ctx, handler, root } = await workspace();
    const declaration = await handler.validate(`jp://conversation/${id.slice(0, 12)}/turn/0`, ctx);
    expect(declaration).toBe(`jp://conversation/${id}/turn/0`);
    const [resource] = await handler.resolve([declaration], ctx);
    expect(resource).toMatchObject({ uri: declaration, name: 'turn 0 of Notes', mimeType: 'text/markdown' });
    expect((resource as { text: string }).text).toMatch(/^# Turn 0/);
    expect((resource as { text: string }).text).toContain('`file:notes.md`');
    expect((resource as { text: string }).text).not.toContain(root);
    expect(handler.covers(declaration, declaration, ctx)).toBe(true);
  });

  it('refuses a removed conversation and a turn it does not have, as attachment errors (exit 4)', async () => {
    const { jpDir, id, ctx, handler } = await workspace();
    await expect(handler.resolve([`jp://conversation/${id}/turn/5`], ctx)).rejects.toMatchObject({ exitCode: 4, message: expect.stringContaining('has no turn 5; its turns are 0 to 0') });
    appendFileSync(path.join(jpDir, 'conversations', id, 'events.jsonl'), `${JSON.stringify({ type: 'removal', timestamp: T, turns: 1 })}\n`);
    await expect(handler.validate(`jp://conversation/${id}`, ctx)).rejects.toMatchObject({ exitCode: 4, message: expect.stringContaining(`conversation ${id} was removed`) });
  });
});
