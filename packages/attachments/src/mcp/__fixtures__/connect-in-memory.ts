import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpClients } from '../../handler.ts';

/**
 * jp's client (SDK v2) connected in-process to a server built on SDK 1 (no child process): the fast
 * path for unit tests. The two SDKs' transports share one shape, so the v2 pair serves both ends.
 */
export async function connectInMemory(server: McpServer | Server): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport as unknown as Parameters<typeof server.connect>[0]);
  const client = new Client({ name: 'jp-test', version: '0.0.0' });
  await client.connect(clientTransport);
  return client;
}

/** `McpClients` over already-connected clients, counting `get` calls per server. */
export function inMemoryClients(clients: Record<string, Client>): McpClients & { gets: Record<string, number> } {
  const gets: Record<string, number> = {};
  return {
    gets,
    names: () => Object.keys(clients),
    async get(server) {
      gets[server] = (gets[server] ?? 0) + 1;
      const client = clients[server];
      if (client === undefined) throw new Error(`test: no client ${server}`);
      return client;
    },
  };
}
