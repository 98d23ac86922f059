import { describe, expect, it } from 'vitest';
import { configSources, renderSources } from './config-sources.ts';
import { applyChange, diffLayers } from './diff-layers.ts';
import type { SourcedLayer } from './sourced-layer.ts';
import { resolveConfig } from './validate-config.ts';

const layer = (source: SourcedLayer['source'], value: Record<string, unknown>, label: string = source): SourcedLayer => ({ source, label, layer: value });

describe('where each effective value came from', () => {
  const layers = [
    layer('user', { assistant: { model: 'user/m', max_tokens: 10 }, mcp: { gh: { env: { A: '${A}' } } } }),
    layer('workspace', { assistant: { model: 'echo' }, conversation: {}, mcp: { gh: { command: 'gh' } } }),
    layer('conversation', { conversation: { attachments: ['a.txt'] } }),
    { source: 'invocation' as const, label: '-c', layer: { assistant: { max_tokens: 20 } }, parts: [layer('invocation', { assistant: { max_tokens: 20 } }, '-c "assistant.max_tokens=20"')] },
  ];
  const values = configSources(layers, resolveConfig(layers));
  const sourceOf = (key: string) => values.find((entry) => entry.key.join('.') === key);

  it('is the last layer that set the key, named; the schema default otherwise; an empty table written gives no value', () => {
    expect(sourceOf('assistant.model')).toMatchObject({ value: 'echo', source: 'workspace', from: 'workspace' });
    expect(sourceOf('assistant.max_tokens')).toMatchObject({ value: 20, source: 'invocation', from: '-c "assistant.max_tokens=20"' });
    expect(sourceOf('conversation.attachments')).toMatchObject({ source: 'conversation' });
    expect(sourceOf('conversation.lock_timeout_secs')).toMatchObject({ value: 10, source: 'default' });
    expect(sourceOf('mcp.gh.env.A')).toMatchObject({ source: 'user' });
    expect(sourceOf('mcp.gh.command')).toMatchObject({ source: 'workspace' });
    expect(sourceOf('mcp.gh.args')).toMatchObject({ value: [], source: 'default' });
  });

  it('a value that replaces a table takes its keys with it', () => {
    const replaced = [layer('user', { mcp: { gh: { command: 'gh', tools: ['a'] } } }), layer('workspace', { mcp: { gh: { tools: true } } })];
    expect(configSources(replaced, resolveConfig(replaced)).find((entry) => entry.key.join('.') === 'mcp.gh.tools')).toMatchObject({ value: true, source: 'workspace' });
  });

  it('renders as TOML lines, each with its source in a comment', () => {
    const lines = renderSources([
      { key: ['assistant', 'model'], value: 'echo', source: 'workspace' },
      { key: ['mcp', 'my.server', 'args'], value: ['a "b"'], source: 'user' },
    ]);
    expect(lines).toEqual(['assistant.model = "echo"            # workspace file', 'mcp."my.server".args = ["a \\"b\\""]  # user file']);
  });
});

describe('a change between two layers', () => {
  it.each([
    [{ a: { b: 1, c: 2 } }, { a: { b: 1 } }, { changed: {}, removed: [['a', 'c']] }],
    [{ a: { b: 1 } }, { a: 5 }, { changed: { a: 5 }, removed: [] }],
    [{ a: 5 }, { a: { b: 1 } }, { changed: { a: { b: 1 } }, removed: [] }],
    [{ a: ['x'] }, { a: ['x', 'y'], n: { m: true } }, { changed: { a: ['x', 'y'], n: { m: true } }, removed: [] }],
    [{ a: { b: 1 } }, {}, { changed: {}, removed: [['a']] }],
  ])('%j → %j is %j, and applying it gives the new layer', (before, after, change) => {
    expect(diffLayers(before, after)).toEqual(change);
    expect(applyChange(before, diffLayers(before, after))).toEqual(after);
  });
});
