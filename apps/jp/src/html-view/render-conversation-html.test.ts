import type { ConversationEvent } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { FakeContent, metadata, turn } from './__fixtures__/page-fixture.ts';
import { FOLD_CAP_BYTES } from './content-reader.ts';
import { PAGE_SCRIPT, PAGE_STYLE } from './page-assets.ts';
import { renderConversationHtml, type ConversationPage } from './render-conversation-html.ts';
import { createHash } from 'node:crypto';

const page = (events: ConversationEvent[], content: FakeContent, over: Partial<ConversationPage> = {}): string =>
  renderConversationHtml({ id: 'c1', metadata: metadata({ title: 'T' }), events, baseConfig: {}, currentModel: 'anthropic/claude-haiku-4-5', prices: {}, reader: content, generatedAt: 'now', ...over });

describe('renderConversationHtml', () => {
  it('allows nothing external: a CSP of none, the inline style and script by hash, data: images', () => {
    const html = page(turn('q', [], 'a'), new FakeContent());
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    const hash = (text: string) => createHash('sha256').update(text).digest('base64');
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${hash(PAGE_STYLE)}'; script-src 'sha256-${hash(PAGE_SCRIPT)}'; img-src data:; base-uri 'none'; form-action 'none'`);
    expect(html).toContain(`<style>${PAGE_STYLE}</style>`);
    expect(html).toContain(`<script>${PAGE_SCRIPT}</script>`);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/\b(src|href)="(https?:)?\/\//);
  });

  it('reads only what it shows: no binary, no repeated content, text up to the cap', () => {
    const content = new FakeContent();
    const big = content.ref('file:///w/big.txt', 'y'.repeat(FOLD_CAP_BYTES * 10), { mimeType: 'text/plain' });
    const bin = content.ref('file:///w/a.bin', new Uint8Array(1000), { mimeType: 'application/octet-stream' });
    const events = [...turn('q0', [big, bin], 'a0'), ...turn('q1', [big, bin], 'a1'), ...turn('q2', [], 'a2')];
    const html = page(events, content);
    expect(content.reads).toEqual([{ uri: 'file:///w/big.txt', maxBytes: FOLD_CAP_BYTES }]);
    expect(html).toContain(`at most their first ${FOLD_CAP_BYTES.toLocaleString('en-US')} bytes`);
    expect(html.match(/<section class="turn" id="turn-\d+"/g)).toHaveLength(3);
  });

  it('takes each turn’s model for its cost, and states the totals', () => {
    const content = new FakeContent();
    const prices = { 'anthropic/claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } };
    const html = page(turn('q', [], 'a', { inputTokens: 2_000_000, outputTokens: 0 }), content, { prices });
    // $1 per million input tokens.
    expect(html).toContain('<dt>estimated cost</dt><dd>about $2.00</dd>');
    expect(html).toContain('about $2.0000');
  });

  it('stays under three times the size of the text it shows', () => {
    const content = new FakeContent();
    const events: ConversationEvent[] = [];
    let shown = 0;
    for (let i = 0; i < 300; i++) {
      const text = `line ${i} of a file with some code: if (a < b && c > d) { return "x"; }\n`.repeat(40);
      const query = `question ${i}: what does this do?`;
      const answer = `It compares **a** and *b*, turn ${i}.`;
      shown += Buffer.byteLength(text) + query.length + answer.length;
      events.push(...turn(query, [content.ref(`file:///w/f${i}.ts`, text, { mimeType: 'text/plain' })], answer, { inputTokens: 1000 + i, outputTokens: 50 }));
    }
    const html = page(events, content);
    expect(Buffer.byteLength(html) / shown).toBeLessThan(3);
  });
});
