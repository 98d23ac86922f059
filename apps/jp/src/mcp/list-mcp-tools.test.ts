import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectInMemory } from '../../../../packages/attachments/src/mcp/__fixtures__/connect-in-memory.ts';
import { listMcpTools } from './list-mcp-tools.ts';

/** A low-level server whose listing is whatever the test gives it, page by page (the cursor is the page's index). */
function serverListing(pages: Array<Array<Record<string, unknown>>>): Server {
  const server = new Server({ name: 'listing', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const index = Number(request.params?.cursor ?? 0);
    return { tools: pages[index] as never, ...(index + 1 < pages.length ? { nextCursor: String(index + 1) } : {}) };
  });
  return server;
}

describe('listMcpTools', () => {
  it('keeps a tool whose input schema leaves out "type" (mcp-obsidian under zod 4), as an object schema', async () => {
    const client = await connectInMemory(
      serverListing([
        [
          { name: 'read_notes', description: 'Reads notes', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#' } },
          { name: 'add', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } },
        ],
      ]),
    );
    const tools = await listMcpTools(client);
    expect(tools.map((tool) => tool.name)).toEqual(['read_notes', 'add']);
    expect(tools[0]!.inputSchema).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' });
    expect(tools[1]!.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'number' } } });
    // The SDK's own listing refuses the whole page for the first tool's schema.
    await expect(client.listTools()).rejects.toThrow();
    await client.close();
  });

  it('reads every page in order, and stops at its page limit', async () => {
    const pages = [[{ name: 'a', inputSchema: { type: 'object' } }], [{ name: 'b', inputSchema: { type: 'object' } }], [{ name: 'c', inputSchema: { type: 'object' } }]];
    const client = await connectInMemory(serverListing(pages));
    expect((await listMcpTools(client)).map((tool) => tool.name)).toEqual(['a', 'b', 'c']);
    expect((await listMcpTools(client, 2)).map((tool) => tool.name)).toEqual(['a', 'b']);
    await client.close();
  });

  it('still refuses a listing without tool names', async () => {
    const client = await connectInMemory(serverListing([[{ description: 'nameless', inputSchema: { type: 'object' } }]]));
    await expect(listMcpTools(client)).rejects.toThrow();
    await client.close();
  });
});
