import type { ConversationEvent, RefResource } from '@jp/core';
import { groupTurns } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { pathPrivacy } from './public-uri.ts';
import { renderTranscript } from './render-transcript.ts';
import { renderTurn } from './render-turn.ts';

const T = '2026-01-01T00:00:00.000Z';
const sha = (c: string) => c.repeat(64);
const file: RefResource = { uri: 'file:///work/ws/src/a.ts', mimeType: 'text/typescript', name: 'src/a.ts', ref: { sha256: sha('a'), size: 12, encoding: 'text' } };
const external: RefResource = { uri: `external:${sha('e')}/b.pdf`, mimeType: 'application/pdf', name: 'b.pdf', ref: { sha256: sha('b'), size: 2048, encoding: 'binary' } };
const events = [
  { type: 'turn_start', timestamp: T },
  { type: 'chat_request', timestamp: T, content: 'explain /work/ws/src/a.ts', resources: [file, external] },
  { type: 'tool_call_request', timestamp: T, id: 'c1', name: 'refresh_resource', arguments: { uri: 'file:///work/ws/src/a.ts' } },
  { type: 'tool_call_response', timestamp: T, id: 'c1', isError: false, content: [{ type: 'text', text: 'has ``` fences' }, { type: 'resource', resource: { ...file, ref: { ...file.ref, sha256: sha('c') } } }] },
  { type: 'chat_response', timestamp: T, message: 'It adds.' },
  { type: 'turn_start', timestamp: T },
  { type: 'chat_request', timestamp: T, content: 'and?', resources: [] },
  { type: 'chat_response', timestamp: T, reasoning: 'thinking\nhard' },
  { type: 'chat_response', timestamp: T, structured: { ok: true } },
] as ConversationEvent[];
const privacy = pathPrivacy('/work/ws');
const { turns } = groupTurns(events);

describe('renderTurn', () => {
  it('gives the query, each resource (URI, MIME type, size, sha256, snapshot URI), tool calls and the answer', () => {
    const text = renderTurn(turns[0]!, { conversation: 'c-1', privacy, level: 1 });
    expect(text).toMatch(/^# Turn 0 \(2026-01-01T00:00:00.000Z\)\n/);
    expect(text).toContain('**User**\n\nexplain src/a.ts');
    expect(text).toContain(`- \`file:src/a.ts\`: text/typescript, 12 bytes, sha256 \`${sha('a')}\` (jp://conversation/c-1/resource/${sha('a')})`);
    expect(text).toContain(`- \`external:${sha('e')}/b.pdf\`: application/pdf, 2048 bytes, sha256 \`${sha('b')}\``);
    expect(text).toContain('**Tool call** `refresh_resource` (id `c1`)\n\n```json\n{\n  "uri": "file:src/a.ts"\n}\n```');
    expect(text).toContain('````\nhas ``` fences\n````');
    expect(text).toContain(`sha256 \`${sha('c')}\``);
    expect(text).toContain('**Assistant**\n\nIt adds.');
    expect(text).not.toContain('/work/ws');
  });

  it('serves the turn as stored after a compaction: the resources and tool results stay, the overlay is not rendered', () => {
    const compacted = groupTurns([...events, { type: 'compaction', timestamp: T, from: 0, to: 0, tools: 'omit', resources: 'stub', reasoning: 'strip' }] as ConversationEvent[]).turns;
    const before = renderTurn(turns[0]!, { conversation: 'c-1', privacy, level: 1 });
    expect(renderTurn(compacted[0]!, { conversation: 'c-1', privacy, level: 1 })).toBe(before);
    expect(before).toContain('**Tool call** `refresh_resource`');
    expect(renderTurn(compacted[1]!, { conversation: 'c-1', privacy, level: 1 })).toBe(renderTurn(turns[1]!, { conversation: 'c-1', privacy, level: 1 }));
  });

  it('shows reasoning quoted and structured answers as JSON', () => {
    const text = renderTurn(turns[1]!, { conversation: 'c-1', privacy, level: 2 });
    expect(text).toMatch(/^## Turn 1/);
    expect(text).toContain('> thinking\n> hard');
    expect(text).toContain('```json\n{\n  "ok": true\n}\n```');
  });
});

describe('renderTranscript', () => {
  it('heads the turns with the title and what the conversation is', () => {
    const text = renderTranscript({ id: 'c-1', title: 'About a.ts', createdAt: T, lastActivityAt: T, turnCount: 2, forkedFrom: { id: 'c-0', turn: 3 } }, turns, privacy);
    expect(text).toMatch(/^# About a\.ts\n\n- id: c-1\n/);
    expect(text).toContain('- turns: 2');
    expect(text).toContain('- forked from: c-0 at turn 3');
    expect(text.indexOf('## Turn 0')).toBeLessThan(text.indexOf('## Turn 1'));
    expect(text).not.toContain('/work/ws');
  });

  it('names an untitled conversation by its id', () => {
    expect(renderTranscript({ id: 'c-2', createdAt: T, lastActivityAt: T, turnCount: 0 }, [], privacy)).toMatch(/^# Conversation c-2\n/);
  });
});
