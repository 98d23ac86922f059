import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListResourcesRequestSchema, ListResourceTemplatesRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectInMemory } from './__fixtures__/connect-in-memory.ts';
import { createFixtureServer } from './__fixtures__/fixture-server.mjs';
import { listMcpCatalog } from './list-mcp-catalog.ts';

/** A server listing `total` resources `page` at a time, and templates unless `noTemplates`. */
function pagedServer(total: number, page: number, noTemplates = false): Server {
  const server = new Server({ name: 'paged', version: '1' }, { capabilities: { resources: {} } });
  server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const end = Math.min(start + page, total);
    const resources = Array.from({ length: end - start }, (_, i) => ({ uri: `paged://r/${start + i}`, name: `r${start + i}` }));
    return end < total ? { resources, nextCursor: String(end) } : { resources };
  });
  if (!noTemplates) {
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) =>
      request.params?.cursor === undefined
        ? { resourceTemplates: [{ uriTemplate: 'paged://t/{a}', name: 'a' }], nextCursor: 'next' }
        : { resourceTemplates: [{ uriTemplate: 'paged://t/{+b}', name: 'b' }] },
    );
  }
  return server;
}

describe('listMcpCatalog', () => {
  it('reads every page of resources and of templates', async () => {
    const client = await connectInMemory(pagedServer(7, 3));
    const catalog = await listMcpCatalog(client);
    expect(catalog.resources.map((resource) => resource.name)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect(catalog.templates.map((template) => template.uriTemplate)).toEqual(['paged://t/{a}', 'paged://t/{+b}']);
    expect(catalog.truncated).toBe(false);
    expect((await listMcpCatalog(client, { maxPages: 2 })).truncated).toBe(true);
    await client.close();
  });

  it('a server that does not implement template listing has no templates', async () => {
    const client = await connectInMemory(pagedServer(2, 5, true));
    expect(await listMcpCatalog(client)).toEqual({ resources: [{ uri: 'paged://r/0', name: 'r0' }, { uri: 'paged://r/1', name: 'r1' }], templates: [], truncated: false });
    await client.close();
  });

  it('a server that advertises resources but has no resources/list (-32601) lists none, and its templates still count', async () => {
    const server = new Server({ name: 'templates-only', version: '1' }, { capabilities: { resources: {} } });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [{ uriTemplate: 't://{x}', name: 'x' }] }));
    const client = await connectInMemory(server);
    expect(await listMcpCatalog(client)).toEqual({ resources: [], templates: [{ uriTemplate: 't://{x}', name: 'x' }], truncated: false });
    await client.close();
  });

  it('a server without the resources capability has nothing, and is not asked', async () => {
    const server = new Server({ name: 'tools-only', version: '1' }, { capabilities: { tools: {} } });
    const client = await connectInMemory(server);
    expect(await listMcpCatalog(client)).toEqual({ resources: [], templates: [], truncated: false });
    await client.close();
  });

  it('lists the fixture server: direct resources and both templates', async () => {
    const client = await connectInMemory(createFixtureServer());
    const catalog = await listMcpCatalog(client);
    expect(catalog.resources.map((resource) => resource.uri)).toEqual([
      'fixture://docs/readme',
      'fixture://images/pixel.png',
      'fixture://bundle',
      'fixture://pair',
      'fixture://broken',
      'fixture://slow',
      'fixture://env',
      'fixture://cwd',
    ]);
    expect(catalog.templates.map((template) => [template.name, template.uriTemplate])).toEqual([
      ['note', 'fixture://notes/{id}'],
      ['file', 'fixture://files/{+path}'],
    ]);
    await client.close();
  });
});
