import type { GlobalOptions } from '../cli/global-options.ts';
import { findWorkspace } from '../workspace/workspace.ts';

export interface McpServeOptions {
  poll?: boolean;
}

/**
 * `jp mcp serve`: the workspace's conversations as an MCP server on stdin/stdout (RFD 021). Its own
 * module, so the MCP server SDK loads only for this command.
 */
export async function mcpServe(globals: GlobalOptions, options: McpServeOptions): Promise<void> {
  const workspace = findWorkspace(process.cwd(), globals.workspace);
  // Typed at a terminal, the command would look hung: say what it is waiting for (stderr, not the protocol's stdout).
  if (process.stdin.isTTY) process.stderr.write('jp: serving this workspace over MCP on stdin/stdout for an MCP client; Ctrl-D ends it\n');
  const { serveConversations } = await import('../mcp-serve/serve-conversations.ts');
  await serveConversations({ root: workspace.root, jpDir: workspace.jpDir, poll: options.poll === true });
}
