import { UsageError } from '@jp/core';
import type { ConversationEvent } from '@jp/core';
import type { Config } from '../config/config-schema.ts';
import type { JpTool } from './jp-tool.ts';
import { mcpServerOfTool } from './mcp-tool-name.ts';
import type { UnavailableMcpTools } from './mcp-tools.ts';
import { createLocalTool } from './local-tool.ts';
import { refreshResourceTool } from './refresh-resource-tool.ts';
import { createStatefulTool } from './stateful/stateful-tool.ts';
import { spawnHandleFor } from './stateful/spawn-handle.ts';
import { RESERVED_ARGUMENTS } from './stateful/stateful-parameters.ts';

type LocalToolConfig = Config['tools'][string];

/** A `tools.<name>` entry as a tool: one-shot, or stateful when `stateful` is set (RFD 019). */
function localTool(name: string, tool: LocalToolConfig): JpTool {
  if (tool.stateful === undefined) {
    if (tool.actions !== undefined) throw new UsageError(`tools.${name}.actions is only for stateful tools; set tools.${name}.stateful or remove actions`, { code: 'invalid_config' });
    return createLocalTool(name, tool);
  }
  const factory = spawnHandleFor(tool.stateful);
  if (tool.actions !== undefined && !tool.actions.includes('spawn')) {
    throw new UsageError(`tools.${name}.actions must include "spawn": without it the model cannot start the program`, { code: 'invalid_config' });
  }
  const own = Object.keys((tool.parameters.properties ?? {}) as Record<string, unknown>);
  const clash = own.find((key) => (RESERVED_ARGUMENTS as readonly string[]).includes(key));
  if (clash !== undefined) {
    throw new UsageError(`tools.${name}.parameters may not define "${clash}": a stateful tool's calls use it; rename the parameter`, { code: 'invalid_config' });
  }
  return createStatefulTool(name, tool, factory);
}

/**
 * The tools of one query, in a fixed order (refresh_resource, local tools, MCP tools): `all` that
 * can run now, and `offered`, what `--tool` (only the named ones) and `--no-tool` leave of them.
 * refresh_resource is always there, even before the conversation holds a resource (it then
 * refuses every URI): a conversation's tools are fixed at its first request (issue V,
 * `request-frame.ts`).
 */
export function selectTools(options: {
  config: Config;
  events: readonly ConversationEvent[];
  mcpTools: readonly JpTool[];
  /** MCP tools and servers left out, so that naming one of them says why instead of "no tool named". */
  unavailable?: UnavailableMcpTools;
  only: readonly string[];
  without: readonly string[];
}): { all: JpTool[]; offered: JpTool[] } {
  const all: JpTool[] = [refreshResourceTool];
  for (const [name, tool] of Object.entries(options.config.tools)) all.push(localTool(name, tool));
  all.push(...options.mcpTools);
  const names = new Set(all.map((tool) => tool.definition.name));
  const unavailable = options.unavailable ?? { servers: new Map(), tools: new Map() };
  for (const name of options.only) {
    if (names.has(name)) continue;
    const reason = unavailable.tools.get(name);
    if (reason !== undefined) throw new UsageError(`--tool ${name}: ${reason}`, { code: 'tool_unavailable' });
    const server = mcpServerOfTool(name, options.config);
    const failed = server === undefined ? undefined : unavailable.servers.get(server);
    if (failed !== undefined) throw failed;
  }
  for (const name of [...options.only, ...options.without]) {
    if (!names.has(name)) {
      // --no-tool of a tool that is not offered anyway is already satisfied.
      if (options.without.includes(name) && (unavailable.tools.has(name) || unavailable.servers.has(mcpServerOfTool(name, options.config) ?? ''))) continue;
      throw new UsageError(`no tool named ${name} in this query; available: ${[...names].join(', ') || 'none'}`, { code: 'unknown_tool' });
    }
  }
  const offered = all.filter(
    (tool) => (options.only.length === 0 || options.only.includes(tool.definition.name)) && !options.without.includes(tool.definition.name),
  );
  return { all, offered };
}
