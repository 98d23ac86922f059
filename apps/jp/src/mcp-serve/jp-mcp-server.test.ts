import { appendFileSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConversationEvent } from '@jp/core';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Of } from '../store/blob-sha256.ts';
import { ConversationStore } from '../store/conversation-store.ts';
import { ConversationReader } from './conversation-reader.ts';
import { createJpMcpServer } from './jp-mcp-server.ts';
import { pathPrivacy } from './public-uri.ts';

const T = '2026-01-01T00:00:00.000Z';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function turn(content: string, resources: unknown[] = [], answer = `answer to ${content}`): ConversationEvent[] {
  return [
    { type: 'turn_start', timestamp: T },
    { type: 'chat_request', timestamp: T, content, resources },
    { type: 'chat_response', timestamp: T, message: answer },
  ] as ConversationEvent[];
}

async function workspace() {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-serve-')));
  const store = new ConversationStore(path.join(root, '.jp'));
  const text = { uri: `file://${root}/notes.md`, mimeType: 'text/markdown', name: 'notes.md', text: '# notes\n' };
  const binary = { uri: `external:${'e'.repeat(64)}/pic.png`, mimeType: 'image/png', name: 'pic.png', blob: new Uint8Array([137, 80, 78, 71, 0, 1]) };
  const first = await store.create({ baseConfig: {}, events: [...turn('first', [text, binary]), ...turn('second')], turnCount: 2, title: 'Design review' }, store.openContent());
  const second = await store.create({ baseConfig: {}, events: turn('hello'), turnCount: 1 }, store.openContent());
  return { root, store, first, second };
}

async function connect(root: string, follows: string[] = []) {
  const server = createJpMcpServer(
    { reader: new ConversationReader(path.join(root, '.jp')), privacy: pathPrivacy(root), watching: 'watch', follow: (id) => follows.push(id), unfollow: () => undefined },
    'legacy',
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(() => client.close());
  return { client, server };
}

describe('the jp MCP server', () => {
  it('lists one markdown resource per conversation, named by title, with lastModified', async () => {
    const { root, first, second } = await workspace();
    const { client } = await connect(root);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([`jp://conversation/${second}`, `jp://conversation/${first}`]);
    expect(resources[1]).toMatchObject({ name: 'Design review', mimeType: 'text/markdown', annotations: { lastModified: expect.any(String) } });
    expect(resources[0]!.name).toBe(second);
  });

  it('reads a transcript, a turn and snapshots byte for byte', async () => {
    const { root, first } = await workspace();
    const { client } = await connect(root);
    const transcript = await client.readResource({ uri: `jp://conversation/${first}` });
    const text = (transcript.contents[0] as { text: string }).text;
    expect(text).toContain('# Design review');
    expect(text).toContain('`file:notes.md`: text/markdown, 8 bytes');
    expect(text).not.toContain(root);
    const second = await client.readResource({ uri: `jp://conversation/${first}/turn/1` });
    expect((second.contents[0] as { text: string }).text).toMatch(/^# Turn 1/);
    const png = sha256Of(new Uint8Array([137, 80, 78, 71, 0, 1]));
    expect(text).toContain(`jp://conversation/${first}/resource/${png}`);
    const read = await client.readResource({ uri: `jp://conversation/${first}/resource/${png}` });
    expect(read.contents[0]).toMatchObject({ mimeType: 'image/png', _meta: { 'computer.jp/originalUri': expect.stringMatching(/^external:/), 'computer.jp/turn': 0 } });
    expect([...Buffer.from((read.contents[0] as { blob: string }).blob, 'base64')]).toEqual([137, 80, 78, 71, 0, 1]);
  });

  it('says which resource is missing, and keeps serving the others when one is damaged', async () => {
    const { root, first, second } = await workspace();
    const { client } = await connect(root);
    await expect(client.readResource({ uri: 'jp://conversation/nope' })).rejects.toThrow(/no conversation nope/);
    await expect(client.readResource({ uri: 'jp://conversation/%E0%A4%A' })).rejects.toThrow(/no conversation %E0%A4%A/);
    await expect(client.readResource({ uri: 'jp://conversation/..%2Fblobs' })).rejects.toThrow(/no conversation \.\.\/blobs/);
    await expect(client.readResource({ uri: `jp://conversation/${first}/turn/2` })).rejects.toThrow(/has turns 0 to 1; there is no turn "2"/);
    await expect(client.readResource({ uri: `jp://conversation/${first}/resource/${'0'.repeat(64)}` })).rejects.toThrow(/holds no snapshot/);
    appendFileSync(path.join(root, '.jp', 'conversations', second, 'events.jsonl'), 'not json\n{"type":"turn_start","timestamp":"x"}\n');
    await expect(client.readResource({ uri: `jp://conversation/${second}` })).rejects.toThrow(/events\.jsonl line 4 is damaged/);
    expect((await client.readResource({ uri: `jp://conversation/${first}` })).contents).toHaveLength(1);
  });

  it('reads a conversation whose last line is being written', async () => {
    const { root, second } = await workspace();
    const { client } = await connect(root);
    appendFileSync(path.join(root, '.jp', 'conversations', second, 'events.jsonl'), '{"type":"turn_start","timest');
    const read = await client.readResource({ uri: `jp://conversation/${second}` });
    expect((read.contents[0] as { text: string }).text).toContain('hello');
  });

  it('lists a conversation with damaged metadata, and reading it says so', async () => {
    const { root, second } = await workspace();
    writeFileSync(path.join(root, '.jp', 'conversations', second, 'metadata.json'), '{');
    const { client } = await connect(root);
    const { resources } = await client.listResources();
    expect(resources.find((resource) => resource.uri.endsWith(second))).toMatchObject({ name: second });
    await expect(client.readResource({ uri: `jp://conversation/${second}` })).rejects.toThrow(/metadata\.json is not a JSON object/);
  });

  it('completes ids by prefix and title, and turn numbers', async () => {
    const { root, first } = await workspace();
    const { client } = await connect(root);
    const byTitle = await client.complete({ ref: { type: 'ref/resource', uri: 'jp://conversation/{id}' }, argument: { name: 'id', value: 'design' } });
    expect(byTitle.completion.values).toEqual([first]);
    const byPrefix = await client.complete({ ref: { type: 'ref/resource', uri: 'jp://conversation/{id}/turn/{n}' }, argument: { name: 'id', value: first.slice(0, 12) } });
    expect(byPrefix.completion.values).toContain(first);
    const turns = await client.complete({ ref: { type: 'ref/resource', uri: 'jp://conversation/{id}/turn/{n}' }, argument: { name: 'n', value: '' }, context: { arguments: { id: first } } });
    expect(turns.completion.values).toEqual(['0', '1']);
  });

  it('follows a conversation a client subscribes to, and refuses an unknown one', async () => {
    const { root, first } = await workspace();
    const follows: string[] = [];
    const { client } = await connect(root, follows);
    await client.subscribeResource({ uri: `jp://conversation/${first}` });
    expect(follows).toEqual([first]);
    await expect(client.subscribeResource({ uri: 'jp://conversation/nope' })).rejects.toThrow(/no conversation nope/);
  });

  it('pages resources/list with a cursor', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-serve-')));
    const store = new ConversationStore(path.join(root, '.jp'));
    for (let i = 0; i < 105; i++) await store.create({ baseConfig: {}, events: [], turnCount: 0 }, store.openContent());
    const { client } = await connect(root);
    const first = await client.request({ method: 'resources/list', params: {} });
    expect(first.resources).toHaveLength(100);
    const second = await client.listResources({ cursor: first.nextCursor! });
    expect(second.resources).toHaveLength(5);
    expect(second.nextCursor).toBeUndefined();
    expect(new Set([...first.resources, ...second.resources].map((resource) => resource.uri)).size).toBe(105);
    // The client walks every page itself when asked for the list without a cursor.
    expect((await client.listResources()).resources).toHaveLength(105);
  });
});
