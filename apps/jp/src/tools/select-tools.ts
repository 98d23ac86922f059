import { UsageError } from '@jp/core';
import type { ConversationEvent } from '@jp/core';
import type { Config } from '../config/config-schema.ts';
import { streamHasResources } from '../resolution/resolve-turn-attachments.ts';
import type { JpTool } from './jp-tool.ts';
import { createLocalTool } from './local-tool.ts';
import { refreshResourceTool } from './refresh-resource-tool.ts';

/**
 * The tools offered for one query, in a fixed order (refresh_resource, local tools, MCP tools) so
 * the definitions repeat byte for byte across turns. refresh_resource is offered only when the
 * conversation holds a resource. `--tool` keeps only the named tools; `--no-tool` drops some.
 */
export function selectTools(options: {
  config: Config;
  events: readonly ConversationEvent[];
  mcpTools: readonly JpTool[];
  only: readonly string[];
  without: readonly string[];
}): JpTool[] {
  const all: JpTool[] = [];
  if (streamHasResources(options.events)) all.push(refreshResourceTool);
  for (const [name, tool] of Object.entries(options.config.tools)) all.push(createLocalTool(name, tool));
  all.push(...options.mcpTools);
  const names = new Set(all.map((tool) => tool.definition.name));
  for (const name of [...options.only, ...options.without]) {
    if (!names.has(name)) {
      throw new UsageError(`no tool named ${name} in this query; available: ${[...names].join(', ') || 'none'}`, { code: 'unknown_tool' });
    }
  }
  return all.filter(
    (tool) => (options.only.length === 0 || options.only.includes(tool.definition.name)) && !options.without.includes(tool.definition.name),
  );
}
