import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AttachmentError } from '@jp/core';
import { describe, expect, it } from 'vitest';
import { connectInMemory, inMemoryClients } from '../../../../packages/attachments/src/mcp/__fixtures__/connect-in-memory.ts';
import { createFixtureServer } from '../../../../packages/attachments/src/mcp/__fixtures__/fixture-server.mjs';
import { configSchema } from '../config/config-schema.ts';
import { loadMcpTools } from './mcp-tools.ts';

const config = (servers: string[]) =>
  configSchema().parse({ mcp: Object.fromEntries(servers.map((name) => [name, { command: 'unused', tools: true }])) });

/** A server that says it has tools and fails to list them. */
function brokenLister(): Server {
  const server = new Server({ name: 'bad', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => {
    throw new Error('tool registry is down');
  });
  return server;
}

describe('loadMcpTools', () => {
  it('offers the tools of the servers that work; one that fails to list is left out with an error naming it', async () => {
    const fixture = await connectInMemory(createFixtureServer({ slowMs: 10, env: {} }));
    const bad = await connectInMemory(brokenLister());
    try {
      const offer = await loadMcpTools(config(['fixture', 'bad']), inMemoryClients({ fixture, bad }));
      const names = offer.tools.map((tool) => tool.definition.name);
      expect(names).toContain('mcp__fixture__readme_link');
      expect(names.some((name) => name.startsWith('mcp__bad__'))).toBe(false);
      const error = offer.unavailable.servers.get('bad');
      expect(error).toBeInstanceOf(AttachmentError);
      expect(error?.message).toBe('MCP server bad failed to list its tools: tool registry is down');
    } finally {
      await Promise.all([fixture.close(), bad.close()]);
    }
  });

  it('leaves out a tool that requires task-based execution, with the reason', async () => {
    const fixture = await connectInMemory(createFixtureServer({ slowMs: 10, env: {} }));
    try {
      const offer = await loadMcpTools(config(['fixture']), inMemoryClients({ fixture }));
      expect(offer.tools.map((tool) => tool.definition.name)).not.toContain('mcp__fixture__task_only');
      expect(offer.unavailable.tools.get('mcp__fixture__task_only')).toBe(
        'MCP tool task_only on fixture is not offered: it requires task-based execution (execution.taskSupport = "required"), which jp does not support yet',
      );
    } finally {
      await fixture.close();
    }
  });

  it('with only some servers named, starts no other', async () => {
    const fixture = await connectInMemory(createFixtureServer({ slowMs: 10, env: {} }));
    const clients = inMemoryClients({ fixture });
    try {
      const offer = await loadMcpTools(config(['fixture', 'other']), clients, new Set(['fixture']));
      expect(offer.unavailable.servers.size).toBe(0);
      expect(clients.gets).toEqual({ fixture: 1 });
    } finally {
      await fixture.close();
    }
  });
});
