import { AttachmentError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { serverEnvironment } from './server-environment.ts';

describe("an MCP server's environment", () => {
  const environment = { MY_GH_TOKEN: 'ghp_secret', HOST: 'example.com' };

  it('takes env_from and ${NAME} references from jp\'s environment; env_from wins for the same name', () => {
    const env = serverEnvironment('gh', { env: { URL: 'https://${HOST}/api', GITHUB_TOKEN: 'overridden', LEVEL: 'debug' }, env_from: { GITHUB_TOKEN: 'MY_GH_TOKEN' } }, environment);
    expect(env).toEqual({ URL: 'https://example.com/api', GITHUB_TOKEN: 'ghp_secret', LEVEL: 'debug' });
  });

  it('a variable that is not set is a one-line error naming the server, the variable and the setting', () => {
    const missing = (config: { env: Record<string, string>; env_from: Record<string, string> }) => {
      try {
        serverEnvironment('gh', config, environment);
      } catch (error) {
        return error as AttachmentError;
      }
      throw new Error('expected an error');
    };
    const fromEnv = missing({ env: {}, env_from: { GITHUB_TOKEN: 'NOPE_TOKEN' } });
    expect(fromEnv).toBeInstanceOf(AttachmentError);
    expect(fromEnv).toMatchObject({ code: 'mcp_env_missing', exitCode: 4 });
    expect(fromEnv.message).toBe(
      'MCP server gh cannot start: the environment variable NOPE_TOKEN is not set (mcp.gh.env_from.GITHUB_TOKEN); set it for jp, or change mcp.gh.env_from.GITHUB_TOKEN',
    );
    expect(missing({ env: { AUTH: 'Bearer ${NOPE}' }, env_from: {} }).message).toMatch(/^MCP server gh cannot start: the environment variable NOPE is not set \(mcp\.gh\.env\.AUTH\)/);
  });
});
