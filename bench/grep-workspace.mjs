// A workspace for `jp conversation grep` (bench/conversation-grep.mjs): CONVERSATIONS conversations
// of TURNS turns, written the way jp's store writes them (bench/conversation-fixture.mjs for the
// events and loose blobs), with turn 0's twenty attached files moved into one pack per
// conversation, as a tree attach stores them (RFD 008). Each turn has a query, reasoning, a tool
// call and its result, and an answer; every tenth turn from 10 on attaches a text file, turn 25
// a binary. The words come from a seeded generator, so two runs write the same bytes. A few
// needles are planted where the bench looks for them: a query, an answer, a tool result and a
// packed file.
//
// `exportText` writes the same text as plain files for ripgrep: per conversation one transcript
// (query, reasoning, answer, tool call and result of every turn, one after another) and each
// distinct text snapshot as the file it was (`<conversation>/files/<name>`).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeConversation } from './conversation-fixture.mjs';

export const NEEDLE = 'ENOSPC-retry-bug-7f3a';

/** Where each needle is planted: conversation index → what holds it. */
export const PLANTED = { 17: 'user', 512: 'assistant', 700: 'tool', 901: 'resource' };

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A small deterministic generator (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 're', 'to', 'mi', 'sa', 'lo', 'ne', 'vu', 'pi', 'da', 'ge', 'fo', 'ru', 'ti', 'an', 'el', 'or', 'us', 'ix', 'qu'];
const next = random(42);
const WORDS = Array.from({ length: 3000 }, () => Array.from({ length: 2 + Math.floor(next() * 3) }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));

function textOf(rand, bytes, lineWidth = 78) {
  const lines = [];
  let size = 0;
  while (size < bytes) {
    let line = '';
    while (line.length < lineWidth) line += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
    lines.push(line.trimEnd());
    size += line.length;
  }
  return lines.join('\n');
}

/** Blobs → one pack (blob bytes, JSON index, trailer `jp-pack1` + index length), named by the index's sha256. */
function writePack(jpDir, blobs) {
  const rows = [];
  const parts = [];
  let offset = 0;
  for (const [digest, bytes] of blobs) {
    rows.push([digest, offset, bytes.byteLength]);
    parts.push(bytes);
    offset += bytes.byteLength;
  }
  const index = Buffer.from(JSON.stringify(rows), 'utf8');
  const trailer = Buffer.alloc(16);
  Buffer.from('jp-pack1', 'latin1').copy(trailer, 0);
  trailer.writeBigUInt64BE(BigInt(index.byteLength), 8);
  const dir = path.join(jpDir, 'blobs', 'packs');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${sha256(index)}.pack`), Buffer.concat([...parts, index, trailer]));
}

/** The conversation's turns, its text for ripgrep, and which of its snapshots go into a pack. */
function conversationOf(c, turns, scale) {
  const rand = random(1000 + c);
  const list = [];
  const tree = Array.from({ length: 20 }, (_, f) => ({ uri: `file:///work/project/src/module${f}.ts`, name: `src/module${f}.ts`, mimeType: 'text/plain', content: textOf(rand, 3500 * scale) }));
  for (let t = 0; t < turns; t++) {
    const turn = {
      query: textOf(rand, 300 * scale),
      answer: textOf(rand, 1150 * scale),
      reasoning: textOf(rand, 200 * scale),
      tools: [{ name: 'read_file', arguments: { path: `src/module${t % 20}.ts`, note: textOf(rand, 60 * scale, 60) }, result: textOf(rand, 200 * scale) }],
      resources: [],
    };
    if (t === 0) turn.resources = tree;
    if (t > 0 && t % 10 === 0 && t < 40) turn.resources = [{ uri: `file:///work/project/notes/note${t}.md`, name: `notes/note${t}.md`, mimeType: 'text/markdown', content: textOf(rand, 10_000 * scale) }];
    if (t === 25) turn.resources = [{ uri: 'file:///work/project/diagram.png', name: 'diagram.png', mimeType: 'image/png', content: new Uint8Array(Array.from({ length: 8000 }, () => Math.floor(rand() * 256))) }];
    list.push(turn);
  }
  const plant = PLANTED[c];
  if (plant === 'user') list[3].query += `\nthe disk filled up: ${NEEDLE} again`;
  if (plant === 'assistant') list[41].answer += `\nso ${NEEDLE} is what bit us`;
  if (plant === 'tool') list[7].tools[0].result += `\nlog: ${NEEDLE} at offset 4096`;
  if (plant === 'resource') tree[11].content += `\n// TODO ${NEEDLE}\n`;
  return { list, tree };
}

/** Writes the workspace at `root` (`.jp/` inside) and its plain-text export at `exportDir`; returns the bytes of text written to each. */
export function writeGrepWorkspace(root, exportDir, { conversations = 1000, turns = 50, scale = 1 } = {}) {
  const jpDir = path.join(root, '.jp');
  mkdirSync(jpDir, { recursive: true });
  writeFileSync(path.join(jpDir, 'config.toml'), '');
  let textBytes = 0;
  for (let c = 0; c < conversations; c++) {
    const id = `${(1_700_000_000_000 + c * 1000).toString(36).padStart(9, '0')}-${String(c).padStart(5, '0')}`;
    const { list, tree } = conversationOf(c, turns, scale);
    const events = list.map((turn) => ({
      query: turn.query,
      answer: turn.answer,
      resources: turn.resources,
      tools: turn.tools,
    }));
    const blobs = writeConversation(root, { id, title: `Conversation ${c}: ${WORDS[c % WORDS.length]} ${WORDS[(c * 7) % WORDS.length]}`, turns: events });
    // Reasoning goes in as its own chat_response before the answer, as a reasoning model's turn is stored.
    const file = path.join(jpDir, 'conversations', id, 'events.jsonl');
    let t = -1;
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        const json = JSON.parse(line);
        if (json.type === 'turn_start') t++;
        if (json.type !== 'chat_request') return [line];
        return [line, JSON.stringify({ type: 'chat_response', timestamp: json.timestamp, reasoning: list[t].reasoning })];
      });
    writeFileSync(file, `${lines.join('\n')}\n`);
    // Turn 0's tree goes into one pack, as a tree attach stores it.
    const packed = tree.map((resource) => Buffer.from(resource.content, 'utf8'));
    writePack(jpDir, packed.map((bytes) => [sha256(bytes), bytes]));
    for (const bytes of packed) rmSync(blobs.get(sha256(bytes)).file, { force: true });

    const dir = path.join(exportDir, id);
    mkdirSync(path.join(dir, 'files', 'src'), { recursive: true });
    mkdirSync(path.join(dir, 'files', 'notes'), { recursive: true });
    const transcript = list
      .map((turn) => [turn.query, turn.reasoning, turn.tools.map((tool) => `${tool.name} ${JSON.stringify(tool.arguments)}\n${tool.result}`).join('\n'), turn.answer].join('\n'))
      .join('\n');
    writeFileSync(path.join(dir, 'transcript.txt'), transcript);
    textBytes += Buffer.byteLength(transcript);
    for (const turn of list) {
      for (const resource of turn.resources) {
        if (typeof resource.content !== 'string') continue;
        writeFileSync(path.join(dir, 'files', resource.name), resource.content);
        textBytes += Buffer.byteLength(resource.content);
      }
    }
  }
  return { textBytes };
}
