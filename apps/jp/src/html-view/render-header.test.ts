import { describe, expect, it } from 'vitest';
import { metadata } from './__fixtures__/page-fixture.ts';
import { estimateCost, renderHeader } from './render-header.ts';
import { NO_TOKENS, turnTokens } from './turn-usage.ts';

const sonnet = { model: 'anthropic/claude-sonnet-4-5', tokens: turnTokens({ inputTokens: 1_000_000, cacheReadTokens: 1_000_000, outputTokens: 0 }) };

describe('renderHeader', () => {
  it('shows title, id, models, turns, fork origin and token totals', () => {
    const prices = { 'anthropic/claude-sonnet-4-5': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
    const html = renderHeader('c1', metadata({ title: 'A <title>', forkedFrom: { id: 'c0', turn: 3 } }), [sonnet, { model: 'echo', tokens: turnTokens({ inputTokens: 10, outputTokens: 5 }) }], prices);
    expect(html).toContain('<h1>A &lt;title&gt;</h1>');
    expect(html).toContain('<code>anthropic/claude-sonnet-4-5</code>, <code>echo</code>');
    expect(html).toContain('c0 at turn 3');
    expect(html).toContain('<dt>turns</dt><dd>2</dd>');
    expect(html).toContain('<dt>cache read</dt><dd>1,000,000</dd>');
    expect(html).toContain('<dt>output tokens</dt><dd>5</dd>');
    // Only the priced turns count, and the page says which model had no price.
    expect(html).toContain('about $0.3000 for 1 of 2 turns (no price known for echo)');
  });

  it('shows no cost for unknown models', () => {
    expect(renderHeader('c1', metadata(), [{ model: 'echo', tokens: turnTokens({ inputTokens: 1 }) }], {})).toContain('not shown: no price known for echo');
    expect(estimateCost([{ model: 'echo', tokens: NO_TOKENS }], {}).priced).toBe(0);
  });
});
