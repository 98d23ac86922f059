// Writes a conversation into a workspace the way jp's store does (RFD 008, RFD 011): metadata.json,
// base-config.json, events.jsonl with each resource's content as a `$blob` reference, and the
// blobs loose under .jp/blobs/<first two hex>/<sha256>. Used by bench/conversation-html.mjs and
// apps/jp/test/conversation-html.e2e.test.ts, which need conversations of known usage and size
// without running thousands of queries.
//
//   writeConversation(workspace, { id, title, baseConfig, turns: [{ query, answer, usage, resources, tools }] })
//
// A resource is { uri, name?, mimeType, content: string | Uint8Array }; a string is stored with
// encoding "text". `tools` are [{ name, arguments, result: string }]. Returns the blobs written,
// by sha256, with the URI of the first snapshot that holds each.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

export function writeConversation(workspace, { id, title, baseConfig = {}, turns, start = Date.parse('2026-11-20T10:00:00Z') }) {
  const jp = path.join(workspace, '.jp');
  const dir = path.join(jp, 'conversations', id);
  mkdirSync(dir, { recursive: true });
  const blobs = new Map();
  const stored = (resource) => {
    const bytes = typeof resource.content === 'string' ? Buffer.from(resource.content, 'utf8') : Buffer.from(resource.content);
    const digest = sha256(bytes);
    if (!blobs.has(digest)) {
      const file = path.join(jp, 'blobs', digest.slice(0, 2), digest);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, bytes);
      blobs.set(digest, { uri: resource.uri, size: bytes.byteLength, file });
    }
    const json = { uri: resource.uri };
    if (resource.mimeType !== undefined) json.mimeType = resource.mimeType;
    if (resource.name !== undefined) json.name = resource.name;
    return { ...json, $blob: digest, size: bytes.byteLength, encoding: typeof resource.content === 'string' ? 'text' : 'binary' };
  };
  const lines = [];
  turns.forEach((turn, i) => {
    const timestamp = new Date(start + i * 30_000).toISOString();
    lines.push({ type: 'turn_start', timestamp });
    if (turn.model !== undefined) lines.push({ type: 'config_delta', timestamp, delta: { assistant: { model: turn.model } } });
    const request = { type: 'chat_request', timestamp, content: turn.query };
    if ((turn.resources ?? []).length > 0) request.resources = turn.resources.map(stored);
    if (turn.superseded !== undefined) request.superseded = turn.superseded;
    lines.push(request);
    (turn.tools ?? []).forEach((tool, j) => {
      const callId = `call-${i}-${j}`;
      lines.push({ type: 'tool_call_request', timestamp, id: callId, name: tool.name, arguments: tool.arguments });
      lines.push({ type: 'tool_call_response', timestamp, id: callId, content: [{ type: 'text', text: tool.result }], isError: false });
    });
    const response = { type: 'chat_response', timestamp, message: turn.answer };
    if (turn.usage !== undefined) response.usage = turn.usage;
    lines.push(response);
  });
  writeFileSync(path.join(dir, 'events.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  writeFileSync(path.join(dir, 'base-config.json'), JSON.stringify(baseConfig));
  const last = new Date(start + Math.max(0, turns.length - 1) * 30_000).toISOString();
  writeFileSync(
    path.join(dir, 'metadata.json'),
    JSON.stringify({ id, ...(title !== undefined ? { title } : {}), createdAt: new Date(start).toISOString(), lastActivityAt: last, turnCount: turns.length, configVersion: 2 }),
  );
  return blobs;
}
