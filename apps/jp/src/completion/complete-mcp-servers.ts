import type { CompletionCandidate } from './completion-candidate.ts';
import type { CompletionScope } from './completion-scope.ts';
import { isTable, readConfigTables } from './read-config-tables.ts';

/** The servers configured as `[mcp.NAME]` in either config file, each with its command. */
export function completeMcpServers(scope: CompletionScope): CompletionCandidate[] {
  const servers = new Map<string, string | undefined>();
  for (const file of readConfigTables(scope.jpDir)) {
    if (!isTable(file.mcp)) continue;
    for (const [name, server] of Object.entries(file.mcp)) {
      if (isTable(server)) servers.set(name, typeof server.command === 'string' ? server.command : servers.get(name));
    }
  }
  return [...servers].map(([value, command]) => ({ value, description: command }));
}
