import { describe, expect, it } from 'vitest';
import { readCfgArgs } from './load-config.ts';
import { isSecretField, isSecretName, withoutSecrets } from './secret-fields.ts';

describe('secret fields', () => {
  it.each(['GITHUB_TOKEN', 'token', 'api_key', 'apikey', 'OPENAI_API_KEY', 'client-secret', 'db_password', 'passwd', 'ssh_passphrase', 'aws_credentials', 'access_token'])(
    '%s is secret-named',
    (key) => expect(isSecretName(key)).toBe(true),
  );

  it.each(['api_key_env', 'max_tokens', 'tokens', 'keyboard', 'key', 'model', 'system_prompt', 'cache_ttl', 'secretary', 'TOKEN_ENV'])('%s is not secret-named', (key) => {
    expect(isSecretName(key)).toBe(false);
  });

  it('every MCP server env value is secret, whatever its name; env_from names and pure references are not', () => {
    expect(isSecretField(['mcp', 'gh', 'env', 'LOG_LEVEL'], 'debug')).toBe(true);
    expect(isSecretField(['mcp', 'gh', 'env_from', 'GITHUB_TOKEN'], 'MY_GH_TOKEN')).toBe(false);
    expect(isSecretField(['mcp', 'gh', 'env', 'GITHUB_TOKEN'], '${MY_GH_TOKEN}')).toBe(false);
    expect(isSecretField(['mcp', 'gh', 'env', 'AUTH'], '${USER}${PASS}')).toBe(false);
    expect(isSecretField(['mcp', 'gh', 'env', 'AUTH'], '${USER}:${PASS}')).toBe(true); // literal text besides references
    expect(isSecretField(['mcp', 'gh', 'env', 'AUTH'], 'Bearer ${TOKEN}')).toBe(true);
    expect(isSecretField(['mcp', 'gh', 'env', 'AUTH'], '$${TOKEN}')).toBe(true);
    expect(isSecretField(['mcp', 'gh', 'command'], 'node')).toBe(false);
    expect(isSecretField(['providers', 'openai', 'api_key'], 'sk-1')).toBe(true);
    expect(isSecretField(['providers', 'openai', 'api_key_env'], 'MY_KEY')).toBe(false);
    expect(isSecretField(['assistant', 'max_tokens'], 100)).toBe(false);
  });

  it('leave secret values out of a layer, keeping the rest and dropping tables that held only secrets', () => {
    const layer = {
      assistant: { model: 'echo', max_tokens: 10 },
      mcp: {
        gh: { command: 'gh-mcp', args: ['--stdio'], env: { GITHUB_TOKEN: 'ghp_1', REF: '${X}' }, env_from: { OTHER_TOKEN: 'MY_OTHER' } },
        only: { env: { T: 'tok' } },
      },
      tools: { t: { parameters: { properties: { token: { type: 'string' } }, required: ['token'] } } },
    };
    expect(withoutSecrets(layer)).toEqual({
      kept: {
        assistant: { model: 'echo', max_tokens: 10 },
        mcp: { gh: { command: 'gh-mcp', args: ['--stdio'], env: { REF: '${X}' }, env_from: { OTHER_TOKEN: 'MY_OTHER' } } },
        tools: { t: { parameters: { properties: { token: { type: 'string' } }, required: ['token'] } } },
      },
      removed: ['mcp.gh.env.GITHUB_TOKEN', 'mcp.only.env.T'],
    });
    expect(withoutSecrets({ mcp: { x: { env: { T: 'tok' } } } })).toEqual({ kept: {}, removed: ['mcp.x.env.T'] });
    expect(withoutSecrets({ mcp: { x: { env: {} } } })).toEqual({ kept: { mcp: { x: { env: {} } } }, removed: [] });
  });

  it('a -c error quotes the key of a secret field, never its value', () => {
    expect(() => readCfgArgs(['providers.openai.api_key=sk-live-123'])).toThrow('invalid configuration in -c "providers.openai.api_key=…": unknown key providers.openai.api_key');
    expect(() => readCfgArgs(['mcp.gh.env.T=${bad name}'])).toThrow(/-c "mcp\.gh\.env\.T=…"/);
    expect(() => readCfgArgs(['assistant.modle=echo'])).toThrow('-c "assistant.modle=echo"');
  });

  it('a URL with a password, a token as its user, or a credential query parameter is secret, whatever its key (RFD 013)', () => {
    const layer = {
      providers: {
        ollama: { base_url: 'http://user:SEKRIT@host:11434/v1' },
        google: { base_url: 'https://g.example/v1beta?key=AIzaSEKRIT' },
        openai: { base_url: 'https://api.openai.com/v1' },
      },
      conversation: { attachments: ['notes.txt', { url: 'https://tok@example.com/a' }] },
    };
    expect(withoutSecrets(layer)).toEqual({
      kept: { providers: { openai: { base_url: 'https://api.openai.com/v1' } } },
      removed: ['providers.ollama.base_url', 'providers.google.base_url', 'conversation.attachments'],
    });
    expect(isSecretField(['providers', 'x', 'base_url'], 'http://host/v1?alt=sse')).toBe(false);
  });
});
