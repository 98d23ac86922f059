import { describe, expect, it } from 'vitest';
import { checkLayer, readCfgArgs, resolveConfig } from './load-config.ts';
import { mergeConfig } from './merge-config.ts';
import { parseCfgArg, parseKey } from './parse-cfg-arg.ts';

describe('-c KEY=VALUE', () => {
  it('builds a nested layer with TOML values and bare strings', () => {
    expect(parseCfgArg('assistant.model=echo')).toEqual({ assistant: { model: 'echo' } });
    expect(parseCfgArg('conversation.attachment.max_files=10')).toEqual({ conversation: { attachment: { max_files: 10 } } });
    expect(parseCfgArg('conversation.attachments=["a.txt", "src/"]')).toEqual({ conversation: { attachments: ['a.txt', 'src/'] } });
    expect(parseCfgArg('providers.anthropic.base_url="http://127.0.0.1:1"')).toEqual({
      providers: { anthropic: { base_url: 'http://127.0.0.1:1' } },
    });
    expect(parseCfgArg('assistant.system_prompt=a = b')).toEqual({ assistant: { system_prompt: 'a = b' } });
  });

  it('reads quoted words in a key, dots and = inside them included', () => {
    expect(parseCfgArg('providers.openai.models."gpt-4.1".context_window=400')).toEqual({ providers: { openai: { models: { 'gpt-4.1': { context_window: 400 } } } } });
    expect(parseCfgArg("mcp.'my.server'.command=node")).toEqual({ mcp: { 'my.server': { command: 'node' } } });
    expect(parseCfgArg('mcp."a=b".command=x=y')).toEqual({ mcp: { 'a=b': { command: 'x=y' } } });
    expect(parseCfgArg('mcp."t\\u0041".command=n')).toEqual({ mcp: { 'tA': { command: 'n' } } });
    expect(parseKey(' assistant . model ', 'test')).toEqual(['assistant', 'model']);
  });

  it.each(['assistant.model', '=echo', 'a..b=1', 'a b=1', '', 'a."b=1', 'a.""c=1', "a.'b\nc'.d=1"])('rejects %j with a usage error', (arg) => {
    expect(() => parseCfgArg(arg)).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it('names unknown keys and wrong types', () => {
    expect(() => readCfgArgs(['assistant.modle=echo'])).toThrow(/unknown key assistant\.modle/);
    expect(() => readCfgArgs(['conversation.attachment.max_files=many'])).toThrow(/conversation\.attachment\.max_files/);
    expect(() => readCfgArgs(['conversation.attachment.size_policy=maybe'])).toThrow(/size_policy/);
  });
});

describe('configuration layers', () => {
  it('merge objects key by key and replace arrays whole', () => {
    const base = { conversation: { attachments: ['a'], lock_timeout_secs: 3 }, assistant: { model: 'echo' } };
    const merged = mergeConfig(base, { conversation: { attachments: ['b'] } });
    expect(merged).toEqual({ conversation: { attachments: ['b'], lock_timeout_secs: 3 }, assistant: { model: 'echo' } });
  });

  it('fill defaults when resolved', () => {
    const config = resolveConfig([]);
    expect(config.conversation).toEqual({
      attachments: [],
      compaction: { auto: 'ask', threshold: 0.9, keep_first: 0, keep_last: 4, reasoning: true, tools: 'strip-results', resources: true, summarize: false },
      attachment: {
        size_policy: 'ask',
        refresh: 'notify',
        max_bytes: 524288,
        max_files: 500,
        http: { max_bytes: 10485760, timeout_secs: 30, max_redirects: 5 },
        cmd: { timeout_secs: 30, max_output_bytes: 10485760 },
      },
      lock_timeout_secs: 10,
      deduplication: { enabled: true, min_bytes: 300 },
      history: { superseded: 'omit-when-cold' },
    });
    expect(config.assistant.request.max_retries).toBe(3);
    expect(config.assistant.model).toBeUndefined();
  });

  it('check what a single layer says on its own, naming its source; a key it leaves out may come from another layer', () => {
    expect(() => checkLayer({ mcp: { s: { args: 'x' } } }, '.jp/config.toml')).toThrow(/invalid configuration in \.jp\/config\.toml: mcp\.s\.args/);
    expect(() => checkLayer({ mcp: { s: { args: [1] } } }, '.jp/config.toml')).toThrow(/invalid configuration in \.jp\/config\.toml: mcp\.s\.args\.0/);
    expect(() => checkLayer({ mcp: { s: { comand: 'node' } } }, 'x')).toThrow(/invalid configuration in x: unknown key mcp\.s\.comand/);
    expect(checkLayer({ mcp: { s: { args: [] } } }, '.jp/config.toml')).toEqual({ mcp: { s: { args: [] } } });
  });
});

describe('one setting of a configured table (issue I)', () => {
  const workspace = { source: 'workspace' as const, label: '.jp/config.toml', layer: { mcp: { everything: { command: 'node', args: ['srv.js'] } } } };

  it('is enough: -c mcp.x.startup_timeout_secs merges into the server the file defines', () => {
    const config = resolveConfig([workspace, readCfgArgs(['mcp.everything.startup_timeout_secs=30'])]);
    expect(config.mcp.everything).toMatchObject({ command: 'node', args: ['srv.js'], startup_timeout_secs: 30 });
  });

  it('several -c on one table merge', () => {
    const config = resolveConfig([readCfgArgs(['mcp.x.command=node', 'mcp.x.args=["a"]', 'mcp.x.request_timeout_secs=5'])]);
    expect(config.mcp.x).toMatchObject({ command: 'node', args: ['a'], request_timeout_secs: 5 });
  });

  it('an error names the layer and key the user wrote', () => {
    expect(() => resolveConfig([workspace, readCfgArgs(['mcp.nosuch.startup_timeout_secs=30'])])).toThrow(
      'invalid configuration in -c "mcp.nosuch.startup_timeout_secs=30": mcp.nosuch.command is missing (mcp.nosuch is set only in -c "mcp.nosuch.startup_timeout_secs=30")',
    );
    expect(() => readCfgArgs(['mcp.everything.startup_timeout_secs=soon'])).toThrow(/^invalid configuration in -c "mcp\.everything\.startup_timeout_secs=soon": mcp\.everything\.startup_timeout_secs: /);
    const user = { source: 'user' as const, label: '/home/me/.config/jp/config.toml', layer: { mcp: { gh: { env: { A: '${A}' } } } } };
    expect(() => resolveConfig([user, workspace])).toThrow(
      'invalid configuration in /home/me/.config/jp/config.toml: mcp.gh.command is missing (mcp.gh is set only in /home/me/.config/jp/config.toml)',
    );
    expect(() => resolveConfig([{ ...workspace, layer: { assistant: { max_tokens: 1 } } }, { source: 'conversation', label: 'conversation c1', layer: { assistant: { max_tokens: 0 } } }])).toThrow(
      /^invalid configuration in conversation c1: assistant\.max_tokens: /,
    );
  });
});
