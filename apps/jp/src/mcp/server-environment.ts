import { AttachmentError } from '@jp/core';
import { expandReferences } from '../config/env-references.ts';
import type { Config } from '../config/config-schema.ts';

type McpServerConfig = Config['mcp'][string];

/**
 * The variables a server is started with, on top of the SDK's safe defaults: its `env` with every
 * `${NAME}` taken from jp's environment, then its `env_from` (`GITHUB_TOKEN = "MY_GH_TOKEN"`: the
 * server's GITHUB_TOKEN is jp's MY_GH_TOKEN), which wins over `env` for the same name. The
 * configuration holds only the references, so only they are ever stored (RFD 001, secrets). A variable
 * that is not set stops the server from starting, with an error naming the server and the setting.
 */
export function serverEnvironment(name: string, config: Pick<McpServerConfig, 'env' | 'env_from'>, environment: NodeJS.ProcessEnv): Record<string, string> {
  const lookup = (variable: string, setting: string): string => {
    const value = environment[variable];
    if (value === undefined) {
      throw new AttachmentError(name, `MCP server ${name} cannot start: the environment variable ${variable} is not set (${setting}); set it for jp, or change ${setting}`, {
        code: 'mcp_env_missing',
      });
    }
    return value;
  };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(config.env)) env[key] = expandReferences(value, (variable) => lookup(variable, `mcp.${name}.env.${key}`));
  for (const [key, variable] of Object.entries(config.env_from)) env[key] = lookup(variable, `mcp.${name}.env_from.${key}`);
  return env;
}
