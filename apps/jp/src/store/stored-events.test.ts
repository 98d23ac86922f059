import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveResourceContent, type ConversationEvent, type LoadedResource } from '@jp/core';
import { resourceSha256, sha256Of } from './blob-sha256.ts';
import { ConversationStore } from './conversation-store.ts';

const timestamp = '2026-01-01T00:00:00.000Z';
const store = () => new ConversationStore(path.join(mkdtempSync(path.join(tmpdir(), 'jp-stored-')), '.jp'));
const TEXT = 'fn main() { println!("stored once"); }\n'.repeat(20);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 255]);
const text: LoadedResource = { uri: 'file:///w/src/main.rs', mimeType: 'text/x-rust', name: 'src/main.rs', text: TEXT };
const image: LoadedResource = { uri: 'file:///w/shot.png', mimeType: 'image/png', blob: PNG, annotations: { priority: 0.5 } };
const page: LoadedResource = { uri: 'https://example.com/', mimeType: 'text/html', text: '<h1>Hi</h1>', formatted: '# Hi' };

function turn(resources: LoadedResource[], ...after: ConversationEvent[]): ConversationEvent[] {
  return [{ type: 'turn_start', timestamp }, { type: 'chat_request', timestamp, content: 'q', resources }, ...after];
}
const toolResult: ConversationEvent = {
  type: 'tool_call_response',
  timestamp,
  id: 'call_1',
  content: [{ type: 'text', text: 'fresh' }, { type: 'resource', resource: text, formatted: '```rust\n…\n```' }],
  isError: false,
};
const eventsFile = (s: ConversationStore, id: string) => path.join(s.dir(id), 'events.jsonl');
/** The events as stored: resources refer to their content, every blob read and verified. */
const refs = async (s: ConversationStore, id: string) => (await s.events(id, s.openContent())).events;
/** The events with their content loaded back, as a provider is given them. */
async function loaded(s: ConversationStore, id: string): Promise<ConversationEvent[]> {
  const content = s.openContent();
  return resolveResourceContent((await s.events(id, content)).events, (resource) => content.read(resource));
}

describe('stored events (blobs)', () => {
  it('keeps payloads out of events.jsonl and loads the same events back', async () => {
    const s = store();
    const events = [...turn([text, image, page]), ...turn([], toolResult)];
    const id = await s.create({ baseConfig: {}, events, turnCount: 2 }, s.openContent());
    const raw = readFileSync(eventsFile(s, id), 'utf8');
    expect(raw).not.toContain('stored once');
    expect(raw).not.toContain('# Hi');
    expect(raw).toContain(`"name":"src/main.rs","$blob":"${resourceSha256(text)}","size":${Buffer.byteLength(TEXT)},"encoding":"text"`);
    expect(raw).toContain(`"$blob":"${resourceSha256(image)}","size":12,"encoding":"binary"`);
    expect(raw).toContain(`"formatted":{"$blob":"${sha256Of(Buffer.from('# Hi'))}","size":4}`);
    expect(readFileSync(s.blobs.path(resourceSha256(image)))).toEqual(Buffer.from(PNG));
    expect(await loaded(s, id)).toEqual(events);
    // In the stream, content is a reference.
    expect((await refs(s, id))[1]).toMatchObject({ resources: [{ ref: { sha256: resourceSha256(text), encoding: 'text' } }, { ref: { encoding: 'binary', size: 12 } }, { formatted: '# Hi', ref: {} }] });
  });

  it('stores a payload once however often it is attached', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: turn([text]), turnCount: 1 }, s.openContent());
    for (let i = 0; i < 5; i++) await s.append(id, turn([text]), s.openContent());
    expect((await refs(s, id)).filter((e) => e.type === 'chat_request')).toHaveLength(6);
    expect(readFileSync(eventsFile(s, id), 'utf8').split(resourceSha256(text)).length - 1).toBe(6);
    expect(existsSync(s.blobs.path(resourceSha256(text)))).toBe(true);
  });

  it('loads lines written before blobs (inline content), and later appends are externalised', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [], turnCount: 0 }, s.openContent());
    const inline = [
      { type: 'turn_start', timestamp },
      { type: 'chat_request', timestamp, content: 'old', resources: [{ uri: 'file:///w/a.txt', text: 'old inline text' }, { uri: 'file:///w/p.png', mimeType: 'image/png', blob: Buffer.from(PNG).toString('base64') }] },
    ];
    writeFileSync(eventsFile(s, id), inline.map((e) => `${JSON.stringify(e)}\n`).join(''));
    expect((await loaded(s, id))[1]).toEqual({ ...inline[1], resources: [{ uri: 'file:///w/a.txt', text: 'old inline text' }, { uri: 'file:///w/p.png', mimeType: 'image/png', blob: PNG }] });
    expect((await s.scan(id)).snapshots).toEqual([
      { uri: 'file:///w/a.txt', turn: 0, size: 15, sha256: sha256Of(Buffer.from('old inline text')) },
      { uri: 'file:///w/p.png', turn: 0, size: 12, sha256: sha256Of(PNG) },
    ]);
    await s.append(id, turn([text]), s.openContent());
    const lines = readFileSync(eventsFile(s, id), 'utf8').trimEnd().split('\n');
    expect(lines[1]).toContain('old inline text');
    expect(lines[3]).not.toContain('stored once');
    expect(await refs(s, id)).toHaveLength(4);
  });

  it('a fork writes externalised lines, even of an old inline conversation', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [], turnCount: 0 }, s.openContent());
    const line = { type: 'chat_request', timestamp, content: 'old', resources: [{ uri: 'file:///w/a.txt', text: 'inline', formatted: 'shown' }] };
    writeFileSync(eventsFile(s, id), `${JSON.stringify({ type: 'turn_start', timestamp })}\n${JSON.stringify(line)}\n`);
    const fork = await s.create({ baseConfig: {}, copy: { from: id, untilTurn: undefined }, events: [], turnCount: 1 }, s.openContent());
    const raw = readFileSync(eventsFile(s, fork), 'utf8');
    expect(raw).not.toContain('inline');
    expect(raw).toContain(`"$blob":"${sha256Of(Buffer.from('inline'))}"`);
    expect(await loaded(s, fork)).toEqual(await loaded(s, id));
  });

  it('a fork shares blobs without reading them, and stops at --until-turn', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [...turn([text]), ...turn([image])], turnCount: 2 }, s.openContent());
    rmSync(s.blobs.path(resourceSha256(image)));
    const early = await s.create({ baseConfig: {}, copy: { from: id, untilTurn: 0 }, events: [], turnCount: 1 }, s.openContent());
    expect(await loaded(s, early)).toEqual(turn([text]));
    await expect(s.create({ baseConfig: {}, copy: { from: id, untilTurn: undefined }, events: [], turnCount: 2 }, s.openContent())).rejects.toThrow(
      new RegExp(`conversation ${id} turn 1, file:///w/shot\\.png refers to blob \\.jp/blobs/.+, which is missing`),
    );
  });

  it('a missing blob is an error naming the conversation and the turn', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [...turn([]), ...turn([text])], turnCount: 2 }, s.openContent());
    rmSync(s.blobs.path(resourceSha256(text)));
    await expect(refs(s, id)).rejects.toThrow(
      new RegExp(`conversation ${id} turn 1 refers to blob \\.jp/blobs/${resourceSha256(text).slice(0, 2)}/${resourceSha256(text)} \\(file:///w/src/main\\.rs\\), which is missing`),
    );
  });

  it('a damaged blob is an error naming the blob; nothing is returned', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: turn([text]), turnCount: 1 }, s.openContent());
    writeFileSync(s.blobs.path(resourceSha256(text)), TEXT.replace('once', 'twice'));
    await expect(refs(s, id)).rejects.toThrow(new RegExp(`blob \\.jp/blobs/\\w\\w/${resourceSha256(text)} is damaged`));
  });

  it('a malformed reference is a damaged line', async () => {
    const s = store();
    const id = await s.create({ baseConfig: {}, events: [], turnCount: 0 }, s.openContent());
    writeFileSync(eventsFile(s, id), `${JSON.stringify({ type: 'chat_request', timestamp, content: 'x', resources: [{ uri: 'u', $blob: 'nothex', size: 1, encoding: 'text' }] })}\n`);
    await expect(refs(s, id)).rejects.toThrow(/events\.jsonl line 1 is damaged \(resource: "\$blob" must be a sha256/);
    await expect(s.scan(id)).rejects.toThrow(/line 1 is damaged/);
  });

  it('scan summarises every snapshot without reading a blob', async () => {
    const s = store();
    const delta: ConversationEvent = { type: 'config_delta', timestamp, delta: { conversation: { attachments: ['src/'] } } };
    const id = await s.create({ baseConfig: {}, events: [...turn([text, image], delta), ...turn([], toolResult)], turnCount: 2 }, s.openContent());
    rmSync(s.blobs.dir, { recursive: true });
    const scanned = await s.scan(id);
    expect(scanned.turns).toBe(2);
    expect(scanned.configEvents).toEqual([delta]);
    expect(scanned.snapshots).toEqual([
      { uri: text.uri, name: 'src/main.rs', turn: 0, size: Buffer.byteLength(TEXT), sha256: resourceSha256(text) },
      { uri: image.uri, turn: 0, size: 12, sha256: resourceSha256(image) },
      { uri: text.uri, name: 'src/main.rs', turn: 1, size: Buffer.byteLength(TEXT), sha256: resourceSha256(text), toolCallId: 'call_1' },
    ]);
  });
});
