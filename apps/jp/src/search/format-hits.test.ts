import { describe, expect, it } from 'vitest';
import { hitJson, pipeLines, terminalLines } from './format-hits.ts';
import type { ConversationHits, SearchHit } from './search-hit.ts';

const hit = (over: Partial<SearchHit>): SearchHit => ({
  conversation: 'c1',
  turn: 2,
  scope: 'user',
  line: 3,
  column: 5,
  text: 'the retry bug',
  ranges: [[4, 9]],
  before: [],
  after: [],
  source: 's1',
  ...over,
});

describe('format-hits', () => {
  const found: ConversationHits = {
    id: 'c1',
    title: 'Retries\nand more',
    hits: [
      hit({ before: ['above'], after: ['below'] }),
      hit({ line: 4, before: [], after: [], text: 'another retry', ranges: [[8, 13]], source: 's1' }),
      hit({ turn: 3, scope: 'resource', snapshot: { uri: 'file:///w/a.ts', name: 'a.ts', sha256: 'f'.repeat(64) }, line: 7, text: 'x retry', ranges: [[2, 7]], source: 's2' }),
    ],
  };

  it('on a pipe: ID:TURN:SCOPE:TEXT, context marked with -, -- between groups that do not touch', () => {
    expect(pipeLines(found, (uri) => uri.replace('file:///w/', 'file:'), 1, false)).toEqual([
      'c1:2:user-above',
      'c1:2:user:the retry bug',
      'c1:2:user-below',
      'c1:2:user:another retry',
      '--',
      'c1:3:resource:file:a.ts:7:x retry',
    ]);
    expect(pipeLines({ ...found, hits: [hit({ turn: undefined, scope: 'title', text: 'T' })] }, (uri) => uri, 0, true)).toEqual(['c1:..:title:T']);
  });

  it('on a terminal: a heading with id, title and count, each match in the match style, long lines cut around it', () => {
    const lines = terminalLines({ ...found, hits: [hit({ text: `${'x'.repeat(200)} retry ${'y'.repeat(200)}`, ranges: [[201, 206]] })] }, (uri) => uri, 0, 80);
    expect(lines[0]).toEqual([['heading', 'c1'], '  ', 'Retries and more', ['dim', '  1 match']]);
    expect(lines[1]).toContainEqual(['match', 'retry']);
    const shown = lines[1]!.map((span) => (typeof span === 'string' ? span : span[1])).join('');
    expect(shown.length).toBeLessThan(100);
    expect(shown).toMatch(/^ {2}2:user: …x+ retry y+…$/);
  });

  it('in JSON: the jp:// URI of the turn, or of the snapshot, and null turn for a title', () => {
    expect(hitJson(found.hits[0]!, 0)).toEqual({ id: 'c1', turn: 2, scope: 'user', uri: 'jp://conversation/c1/turn/2', line: 3, column: 5, text: 'the retry bug' });
    expect(hitJson(found.hits[2]!, 1)).toMatchObject({ uri: `jp://conversation/c1/resource/${'f'.repeat(64)}`, resource: { uri: 'file:///w/a.ts' }, before: [], after: [] });
    expect(hitJson(hit({ turn: undefined, scope: 'title' }), 0)).toMatchObject({ turn: null, uri: 'jp://conversation/c1' });
  });
});
