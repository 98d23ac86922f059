import { appendFileSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { sha256Of } from '../store/blob-sha256.ts';
import { ConversationStore } from '../store/conversation-store.ts';
import { listConversations } from '../store/list-conversations.ts';
import { hitJson, pipeLines } from './format-hits.ts';
import { searchConversations, type SearchRequest } from './search-conversations.ts';
import type { ConversationHits } from './search-hit.ts';
import { compilePattern, type PatternOptions } from './search-pattern.ts';
import { parseScopes } from './search-scope.ts';

const T = '2026-01-01T00:00:00.000Z';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...Buffer.from('needle in a binary')]);

function turn(id: string, parent: string | null, content: string, answer: string, extra: ConversationEvent[] = [], resources: unknown[] = [], at = T): ConversationEvent[] {
  return [
    { type: 'turn_start', timestamp: at, id, parent },
    { type: 'chat_request', timestamp: at, content, resources },
    ...extra,
    { type: 'chat_response', timestamp: at, message: answer },
  ] as ConversationEvent[];
}

async function workspace() {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-grep-')));
  const jpDir = path.join(root, '.jp');
  const store = new ConversationStore(jpDir);
  // Twenty files at once: the store writes them as one pack (RFD 008); one holds the needle.
  const tree = Array.from({ length: 20 }, (_, i) => ({ uri: `file://${root}/src/f${i}.ts`, name: `src/f${i}.ts`, mimeType: 'text/plain', text: `line ${i}\n${i === 7 ? 'a needle in a pack' : 'nothing'}\n` }));
  const binary = { uri: `file://${root}/pic.png`, name: 'pic.png', mimeType: 'image/png', blob: PNG };
  const tools: ConversationEvent[] = [
    { type: 'tool_call_request', timestamp: T, id: 'c1', name: 'lookup', arguments: { q: 'needle args' } },
    { type: 'tool_call_response', timestamp: T, id: 'c1', content: [{ type: 'text', text: 'first\nthe needle in a result' }], isError: false },
    { type: 'chat_response', timestamp: T, reasoning: 'thinking of a needle' },
  ] as ConversationEvent[];
  const first = await store.create(
    { baseConfig: {}, title: 'The needle hunt', turnCount: 2, events: [...turn('t0', null, 'plain start', 'ok', [], [...tree, binary]), ...turn('t1', 't0', 'where is the needle?', 'here:\nthe needle, twice: needle', tools)] },
    store.openContent(),
  );
  const second = await store.create({ baseConfig: {}, turnCount: 1, events: turn('u0', null, 'nothing to see', 'fine') }, store.openContent());
  return { root, jpDir, store, first, second };
}

function search(jpDir: string, pattern: PatternOptions, options: Partial<Omit<SearchRequest, 'pattern' | 'scopes'>> & { scope?: string[] } = {}) {
  const found: ConversationHits[] = [];
  const warnings: string[] = [];
  const outcome = searchConversations(jpDir, { pattern: compilePattern(pattern), scopes: parseScopes(options.scope), context: options.context ?? 0, ids: options.ids, limit: options.limit }, (hits) => found.push(hits), {
    warn: (message) => warnings.push(message),
  });
  const lines = found.flatMap((hits) => pipeLines(hits, (uri) => uri.replace(/^file:\/\/.*\/(src|pic)/, 'file:$1'), options.context ?? 0, false));
  return { found, warnings, outcome, lines };
}

describe('searchConversations', () => {
  it('finds the query, the answer, the tool call and result, a packed snapshot and the title, with their coordinates', async () => {
    const { jpDir, first } = await workspace();
    expect(readdirSync(path.join(jpDir, 'blobs', 'packs')).length).toBe(1);
    const { lines, outcome } = search(jpDir, { pattern: 'needle' });
    expect(lines).toEqual([
      `${first}:..:title:The needle hunt`,
      `${first}:0:resource:file:src/f7.ts:2:a needle in a pack`,
      `${first}:1:user:where is the needle?`,
      `${first}:1:tool:{"q":"needle args"}`,
      `${first}:1:tool:the needle in a result`,
      `${first}:1:assistant:the needle, twice: needle`,
    ]);
    expect(outcome).toEqual({ hits: 6, truncated: false });
  });

  it('searches reasoning only when asked, and each scope alone', async () => {
    const { jpDir, first } = await workspace();
    expect(search(jpDir, { pattern: 'needle' }, { scope: ['reasoning'] }).lines).toEqual([`${first}:1:reasoning:thinking of a needle`]);
    expect(search(jpDir, { pattern: 'needle' }, { scope: ['title,user'] }).lines).toEqual([`${first}:..:title:The needle hunt`, `${first}:1:user:where is the needle?`]);
  });

  it('never searches a binary snapshot as text, whatever the order of its fields', async () => {
    const { jpDir, second } = await workspace();
    expect(search(jpDir, { pattern: 'in a binary' }, { scope: ['all'] }).outcome.hits).toBe(0);
    // A line written by hand, "encoding" before "$blob": only parsing it tells the blob is binary.
    const resource = { encoding: 'binary', uri: 'file:pic.png', mimeType: 'image/png', $blob: sha256Of(PNG), size: PNG.length };
    const line = { type: 'chat_request', timestamp: T, content: 'again', resources: [resource] };
    appendFileSync(path.join(jpDir, 'conversations', second, 'events.jsonl'), `${JSON.stringify({ type: 'turn_start', timestamp: T })}\n${JSON.stringify(line)}\n`);
    expect(search(jpDir, { pattern: 'in a binary' }, { scope: ['all'] }).outcome.hits).toBe(0);
  });

  it('reads case, words and regular expressions as asked', async () => {
    const { jpDir, first } = await workspace();
    expect(search(jpDir, { pattern: 'NEEDLE HUNT', ignoreCase: true }).lines).toEqual([`${first}:..:title:The needle hunt`]);
    expect(search(jpDir, { pattern: 'NEEDLE HUNT' }).outcome.hits).toBe(0);
    expect(search(jpDir, { pattern: 'needl', word: true }).outcome.hits).toBe(0);
    expect(search(jpDir, { pattern: 'needle,? twice', regex: true }).lines).toEqual([`${first}:1:assistant:the needle, twice: needle`]);
  });

  it('gives context, and stops at the limit', async () => {
    const { jpDir, first } = await workspace();
    expect(search(jpDir, { pattern: 'in a result' }, { context: 1 }).lines).toEqual([`${first}:1:tool-first`, `${first}:1:tool:the needle in a result`]);
    const limited = search(jpDir, { pattern: 'needle' }, { limit: 2 });
    expect(limited.outcome).toEqual({ hits: 2, truncated: true });
  });

  it('gives each hit in JSON with its jp:// URI, line and column', async () => {
    const { jpDir, first } = await workspace();
    const [hits] = search(jpDir, { pattern: 'twice' }).found;
    expect(hitJson(hits!.hits[0]!, 0)).toEqual({ id: first, turn: 1, scope: 'assistant', uri: `jp://conversation/${first}/turn/1`, line: 2, column: 13, text: 'the needle, twice: needle' });
    const [packed] = search(jpDir, { pattern: 'in a pack' }).found;
    const sha = sha256Of('line 7\na needle in a pack\n');
    expect(hitJson(packed!.hits[0]!, 0)).toMatchObject({ turn: 0, scope: 'resource', uri: `jp://conversation/${first}/resource/${sha}`, resource: { name: 'src/f7.ts', sha256: sha }, line: 2 });
  });

  it('puts the turns of a branch after a union merge on the branch, numbered along it (RFD 029)', async () => {
    const { jpDir, first } = await workspace();
    // Another clone went on from turn 0 too, later: its turn is a branch keyed by its id.
    const other = turn('b1', 't0', 'the other clone asks about the needle', 'sure', [], [], '2026-01-02T00:00:00.000Z');
    appendFileSync(path.join(jpDir, 'conversations', first, 'events.jsonl'), other.map((event) => `${JSON.stringify(event)}\n`).join(''));
    expect(listConversations(path.join(jpDir, 'conversations')).map((c) => c.id)).toContain(`${first}~b1`);
    expect(search(jpDir, { pattern: 'other clone' }).lines).toEqual([`${first}~b1:1:user:the other clone asks about the needle`]);
    // Asked for the branch alone, its shared turn is numbered along it too.
    expect(search(jpDir, { pattern: 'plain start' }, { ids: [`${first}~b1`] }).lines).toEqual([`${first}~b1:0:user:plain start`]);
    expect(search(jpDir, { pattern: 'plain start' }, { ids: [first] }).lines).toEqual([`${first}:0:user:plain start`]);
  });

  it('skips a removed conversation, and says which lines it could not read', async () => {
    const { jpDir, first, second } = await workspace();
    const file = path.join(jpDir, 'conversations', first, 'events.jsonl');
    appendFileSync(file, `${JSON.stringify({ type: 'removal', timestamp: T, turns: 2 })}\n`);
    expect(search(jpDir, { pattern: 'needle' }).outcome.hits).toBe(0);
    appendFileSync(path.join(jpDir, 'conversations', second, 'events.jsonl'), 'not json at all, nothing\n{"type":"turn_start","timestamp":"x"}\n{"type":"chat_request","timestamp":"x","content":"nothing at the end"}\n{"type":"chat_re');
    const { lines, warnings } = search(jpDir, { pattern: 'nothing' });
    expect(lines).toEqual([`${second}:0:user:nothing to see`, `${second}:1:user:nothing at the end`]);
    expect(warnings).toEqual([`.jp/conversations/${second}/events.jsonl: skipped 1 line that is not JSON`]);
  });

  it('with the title scope alone, reads titles from the metadata and a current activity cache, not the events', async () => {
    const { jpDir, first } = await workspace();
    const file = path.join(jpDir, 'conversations', first, 'events.jsonl');
    appendFileSync(file, `${JSON.stringify({ type: 'title', timestamp: '2026-02-01T00:00:00.000Z', title: 'Renamed: a needle in the events' })}\n`);
    utimesSync(file, 1_000_000, 1_000_000);
    listConversations(path.join(jpDir, 'conversations')); // writes the activity cache
    // Same size and time, other bytes: a reader of events would not find the new title.
    const { size } = statSync(file);
    writeFileSync(file, 'x'.repeat(size));
    utimesSync(file, 1_000_000, 1_000_000);
    const { lines, warnings } = search(jpDir, { pattern: 'needle' }, { scope: ['title'] });
    expect(lines).toEqual([`${first}:..:title:Renamed: a needle in the events`]);
    expect(warnings).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('x'.repeat(size));
  });

  it('keeps an index under .jp/local that gives the same hits, follows a file that changed, and is rebuilt when damaged', async () => {
    const { jpDir, first, second } = await workspace();
    const indexFile = path.join(jpDir, 'local', 'search-index');
    // A whole second as mtime, so that it can be set again exactly after the bytes are changed.
    const file = path.join(jpDir, 'conversations', first, 'events.jsonl');
    utimesSync(file, 1_000_000, 1_000_000);
    const before = search(jpDir, { pattern: 'needle' }).lines;
    expect(statSync(indexFile).size).toBeGreaterThan(0);
    // The second search reads what the index does not rule out; the hits are the same.
    expect(search(jpDir, { pattern: 'needle' }).lines).toEqual(before);
    // A file the index knows (same size and mtime) whose filter rules the pattern out is not read:
    // other bytes written in place, keeping both, are not seen until the index is gone.
    const { size } = statSync(file);
    const zebra = '{"type":"turn_start","timestamp":"x"}\n{"type":"chat_request","timestamp":"x","content":"zebra"}\n';
    const original = readFileSync(file);
    writeFileSync(file, zebra.padEnd(size, ' '));
    utimesSync(file, 1_000_000, 1_000_000);
    expect(search(jpDir, { pattern: 'zebra' }).outcome.hits).toBe(0);
    rmSync(path.join(jpDir, 'local', 'search-index'));
    expect(search(jpDir, { pattern: 'zebra' }).lines).toEqual([`${first}:0:user:zebra`]);
    writeFileSync(file, original);
    // A new turn in a conversation whose filter said "no": its file changed, so it is read again.
    appendFileSync(path.join(jpDir, 'conversations', second, 'events.jsonl'), turn('u1', 'u0', 'a late needle', 'ok').map((event) => `${JSON.stringify(event)}\n`).join(''));
    expect(search(jpDir, { pattern: 'late needle' }).lines).toEqual([`${second}:1:user:a late needle`]);
    writeFileSync(indexFile, 'jpsearch\u0000\u0000\u0000\u0009{not json');
    expect(search(jpDir, { pattern: 'needle' }, { scope: ['user'] }).lines).toEqual([`${first}:1:user:where is the needle?`, `${second}:1:user:a late needle`]);
    expect(readFileSync(indexFile).subarray(0, 8).toString('latin1')).toBe('jpsearch');
    expect(readFileSync(indexFile).length).toBeGreaterThan(100);
  });

  it('writes control characters of stored text visibly', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'jp-grep-')));
    const store = new ConversationStore(path.join(root, '.jp'));
    const id = await store.create({ baseConfig: {}, turnCount: 1, events: turn('v0', null, 'evil \u001b]0;owned\u0007 needle \u009b2J', 'ok') }, store.openContent());
    expect(search(path.join(root, '.jp'), { pattern: 'needle' }).lines).toEqual([`${id}:0:user:evil \\x1b]0;owned\\x07 needle \\x9b2J`]);
  });
});
