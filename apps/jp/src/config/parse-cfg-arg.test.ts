import { describe, expect, it } from 'vitest';
import { readCfgArgs, resolveConfig, validateLayer } from './load-config.ts';
import { mergeConfig } from './merge-config.ts';
import { parseCfgArg } from './parse-cfg-arg.ts';

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

  it.each(['assistant.model', '=echo', 'a..b=1', 'a b=1', ''])('rejects %j with a usage error', (arg) => {
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
    const config = resolveConfig([{}]);
    expect(config.conversation).toEqual({
      attachments: [],
      attachment: {
        size_policy: 'ask',
        max_bytes: 524288,
        max_files: 500,
        http: { max_bytes: 10485760, timeout_secs: 30, max_redirects: 5 },
        cmd: { timeout_secs: 30, max_output_bytes: 10485760 },
      },
      lock_timeout_secs: 10,
      deduplication: { enabled: true, min_bytes: 300 },
    });
    expect(config.assistant.request.max_retries).toBe(3);
    expect(config.assistant.model).toBeUndefined();
  });

  it('validate a single layer against the schema, naming its source', () => {
    expect(() => validateLayer({ mcp: { s: { args: [] } } }, '.jp/config.toml')).toThrow(/invalid configuration in \.jp\/config\.toml: mcp\.s\.command/);
    expect(validateLayer({ mcp: { s: { command: 'node' } } }, 'x')).toEqual({ mcp: { s: { command: 'node' } } });
  });
});
