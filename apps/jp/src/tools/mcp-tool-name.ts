import type { Config } from '../config/config-schema.ts';

/** `mcp__<server>__<tool>`, cut to what every vendor accepts (letters, digits, `_`, `-`; 64 chars). */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/**
 * The configured server whose tools are offered under `name` (`mcpToolName`'s reverse), or
 * `undefined` when no server, or more than one, could have given that name (`a` with the tool
 * `b__c` and `a__b` with `c` are both `mcp__a__b__c`), or when a local tool has it too.
 */
export function mcpServerOfTool(name: string, config: Pick<Config, 'mcp' | 'tools'>): string | undefined {
  if (Object.hasOwn(config.tools, name)) return undefined;
  const servers = Object.keys(config.mcp).filter((server) => name.startsWith(mcpToolName(server, '')));
  return servers.length === 1 ? servers[0] : undefined;
}
