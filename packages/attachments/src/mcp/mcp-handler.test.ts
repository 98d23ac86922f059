import { AttachmentError, isBlobResource, isTextResource, type Resource } from '@jp/core';
import type { Client } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, ListResourcesRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, type AttachmentLimits, type HandlerContext, type McpClients } from '../handler.ts';
import { connectInMemory, inMemoryClients } from './__fixtures__/connect-in-memory.ts';
import { createFixtureServer, FIXTURE_PNG_BASE64, FIXTURE_README } from './__fixtures__/fixture-server.mjs';
import { createMcpHandler } from './mcp-handler.ts';
import { attachmentError as failure } from '../test-support/rejection.ts';

const handler = createMcpHandler();
let fixture: Client;
let bare: Client;
const warnings: string[] = [];

/** A low-level server: one text resource, no listing of templates, a listing that fails. */
function bareServer(): Server {
  const server = new Server({ name: 'bare', version: '1' }, { capabilities: { resources: {} } });
  server.setRequestHandler(ListResourcesRequestSchema, () => {
    throw new Error('listing is broken today');
  });
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (request.params.uri === 'bare://empty') return { contents: [] };
    return { contents: [{ uri: request.params.uri, text: 'bare text' }] };
  });
  return server;
}

beforeAll(async () => {
  fixture = await connectInMemory(createFixtureServer({ slowMs: 500, env: { FIXTURE_ECHO_ENV: 'in-process' } }));
  bare = await connectInMemory(bareServer());
});
afterAll(async () => {
  await Promise.all([fixture.close(), bare.close()]);
});

function context(options: { mcp?: McpClients | null; limits?: Partial<AttachmentLimits>; signal?: AbortSignal } = {}): HandlerContext {
  const mcp = options.mcp === null ? undefined : (options.mcp ?? inMemoryClients({ fixture, bare }));
  return {
    workspaceRoot: '/nonexistent-workspace',
    cwd: '/nonexistent-workspace',
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    logger: { warn: (message) => warnings.push(message) },
    mcp,
    signal: options.signal,
  };
}

async function attach(inputs: string[], ctx = context()): Promise<Resource[]> {
  const declarations = [];
  for (const input of inputs) declarations.push(await handler.validate(input, ctx));
  return handler.resolve(declarations, ctx);
}

describe('mcp handler: validate', () => {
  it('declares the URL as given, without starting the server', async () => {
    const clients = inMemoryClients({ fixture });
    const declaration = await handler.validate('MCP+fixture+fixture://docs/readme', context({ mcp: clients }));
    expect(declaration).toBe('mcp+fixture+fixture://docs/readme');
    expect(clients.gets).toEqual({});
  });

  it('names the configured servers when the server is unknown', async () => {
    const error = await failure(handler.validate('mcp+nosuch+x://y', context()));
    expect(error.message).toBe(
      'mcp+nosuch+x://y: no MCP server "nosuch" is configured (configured: fixture, bare); use one of those or add [mcp.nosuch] with a command (and args) to .jp/config.toml',
    );
    expect(error.code).toBe('mcp_unknown_server');
  });

  it('says how to configure one when none is', async () => {
    const error = await failure(handler.validate('mcp+nosuch+x://y', context({ mcp: null })));
    expect(error.message).toMatch(/^mcp\+nosuch\+x:\/\/y: no MCP servers are configured; add \[mcp\.nosuch\]/);
  });
});

describe('mcp handler: resolve', () => {
  it('reads a direct text resource with the name, title and description the server lists', async () => {
    const [readme, ...rest] = await attach(['mcp+fixture+fixture://docs/readme']);
    expect(rest).toEqual([]);
    expect(readme).toEqual({
      uri: 'fixture://docs/readme',
      mimeType: 'text/markdown',
      text: FIXTURE_README,
      name: 'readme',
      title: 'Fixture README',
      description: 'The fixture server explains itself',
    });
  });

  it('reads a blob resource into bytes', async () => {
    const [pixel] = await attach(['mcp+fixture+fixture://images/pixel.png']);
    expect(pixel !== undefined && isBlobResource(pixel)).toBe(true);
    expect(pixel).toMatchObject({ uri: 'fixture://images/pixel.png', mimeType: 'image/png', name: 'pixel', title: 'One pixel' });
    if (pixel !== undefined && isBlobResource(pixel)) expect(Buffer.from(pixel.blob).equals(Buffer.from(FIXTURE_PNG_BASE64, 'base64'))).toBe(true);
  });

  it('reads URIs matching {var} and {+path} templates and names them by the template', async () => {
    const [note, file] = await attach(['mcp+fixture+fixture://notes/7', 'mcp+fixture+fixture://files/a/b/c.txt']);
    expect(note).toEqual({ uri: 'fixture://notes/7', mimeType: 'text/plain', text: 'note 7\n', name: 'note', title: 'A note by id', description: 'Any id gives a note' });
    expect(file).toMatchObject({ uri: 'fixture://files/a/b/c.txt', text: 'path: a/b/c.txt\n', name: 'file', title: 'A file by path' });
  });

  it('turns every content of a read into a resource, in order, each with its own URI', async () => {
    const resources = await attach(['mcp+fixture+fixture://bundle']);
    expect(resources.map((resource) => [resource.uri, isTextResource(resource) ? resource.text : null, resource.name])).toEqual([
      ['fixture://bundle/part-1', 'part one\n', undefined],
      ['fixture://bundle/part-2', 'part two\n', undefined],
    ]);
  });

  it('keeps every content of a read under one URI: a text and a blob, the second as part 2', async () => {
    const resources = await attach(['mcp+fixture+fixture://pair']);
    expect(resources.map((resource) => [resource.uri, resource.mimeType, isTextResource(resource) ? resource.text : 'blob', resource.name])).toEqual([
      ['fixture://pair', 'text/plain', 'the caption\n', 'pair'],
      ['fixture://pair#part=2', 'image/png', 'blob', 'pair'],
    ]);
    const [, image] = resources;
    expect(image !== undefined && isBlobResource(image) && Buffer.from(image.blob).toString('base64')).toBe(FIXTURE_PNG_BASE64);
  });

  it('a part declared on its own is read whole and picked; a part past the end is not found', async () => {
    const [part] = await attach(['mcp+fixture+fixture://pair#part=2']);
    expect(part).toMatchObject({ uri: 'fixture://pair#part=2', mimeType: 'image/png' });
    const error = await failure(attach(['mcp+fixture+fixture://pair#part=3']));
    expect(error.message).toBe('mcp+fixture+fixture://pair#part=3: server fixture returned fewer than 3 contents for fixture://pair');
  });

  it('keeps declaration order across servers, asks each server once and keeps a URI once', async () => {
    const clients = inMemoryClients({ fixture, bare });
    const resources = await attach(
      ['mcp+bare+bare://one', 'mcp+fixture+fixture://notes/1', 'mcp+fixture+fixture://notes/2', 'mcp+fixture+fixture://notes/1'],
      context({ mcp: clients }),
    );
    expect(resources.map((resource) => resource.uri)).toEqual(['bare://one', 'fixture://notes/1', 'fixture://notes/2']);
    expect(clients.gets).toEqual({ bare: 1, fixture: 1 });
  });

  it('attaches without names, with one warning, when the listing fails', async () => {
    warnings.length = 0;
    const [resource] = await attach(['mcp+bare+bare://thing']);
    expect(resource).toEqual({ uri: 'bare://thing', text: 'bare text' });
    expect(warnings).toEqual(['could not list the resources of MCP server bare (listing is broken today); its resources are attached without names']);
  });

  it('a resource the server does not have (-32602): names the server, the URI and how to list them', async () => {
    const error = await failure(attach(['mcp+fixture+fixture://nope']));
    expect(error.message).toBe(
      'mcp+fixture+fixture://nope: server fixture has no resource fixture://nope (it said: Resource fixture://nope not found); `jp mcp resources fixture` lists its resources and templates',
    );
    expect(error.code).toBe('mcp_resource_not_found');
    expect(error.attachment).toBe('mcp+fixture+fixture://nope');
  });

  it('-32601 on resources/read from a server that offers resources: the resource is not found', async () => {
    const server = new Server({ name: 'picky', version: '1' }, { capabilities: { resources: {} } });
    server.setRequestHandler(ReadResourceRequestSchema, () => {
      throw new McpError(ErrorCode.MethodNotFound, 'no such thing');
    });
    const picky = await connectInMemory(server);
    try {
      const error = await failure(attach(['mcp+picky+picky://gone'], context({ mcp: inMemoryClients({ picky }) })));
      expect(error.message).toBe(
        'mcp+picky+picky://gone: server picky has no resource picky://gone (it said: no such thing); `jp mcp resources picky` lists its resources and templates',
      );
      expect(error.code).toBe('mcp_resource_not_found');
    } finally {
      await picky.close();
    }
  });

  it('-32601 on resources/read from a server without the resources capability: it does not serve resources', async () => {
    const toolsOnly = await connectInMemory(new Server({ name: 'tools-only', version: '1' }, { capabilities: { tools: {} } }));
    try {
      const error = await failure(attach(['mcp+toolsonly+x://y'], context({ mcp: inMemoryClients({ toolsonly: toolsOnly }) })));
      expect(error.message).toBe('mcp+toolsonly+x://y: server toolsonly does not serve resources (it said: Method not found)');
      expect(error.code).toBe('mcp_no_resources');
    } finally {
      await toolsOnly.close();
    }
  });

  it('a read handler that throws: the server error text', async () => {
    const error = await failure(attach(['mcp+fixture+fixture://broken']));
    expect(error.message).toBe('mcp+fixture+fixture://broken: server fixture failed to read fixture://broken: the broken resource always fails');
    expect(error.code).toBe('mcp_server_error');
  });

  it('an empty answer is an error', async () => {
    const error = await failure(attach(['mcp+bare+bare://empty']));
    expect(error.message).toBe('mcp+bare+bare://empty: server bare returned no contents for bare://empty');
  });

  it('the first failure in declaration order is the one reported', async () => {
    const error = await failure(attach(['mcp+fixture+fixture://docs/readme', 'mcp+fixture+fixture://nope', 'mcp+fixture+fixture://broken']));
    expect(error.attachment).toBe('mcp+fixture+fixture://nope');
  });

  it('a failure of the pool (server did not start) keeps its words, prefixed with the attachment', async () => {
    const failing: McpClients = {
      names: () => ['down'],
      get: async () => {
        throw new AttachmentError('down', 'MCP server down exited during startup with exit code 3', { code: 'mcp_server_exited' });
      },
    };
    const error = await failure(attach(['mcp+down+x://y'], context({ mcp: failing })));
    expect(error.message).toBe('mcp+down+x://y: MCP server down exited during startup with exit code 3');
    expect(error.code).toBe('mcp_server_exited');
  });

  it('stops when the signal aborts, without an attachment error', async () => {
    const controller = new AbortController();
    const pending = attach(['mcp+fixture+fixture://slow'], context({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    const error = await pending.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    // The abort itself, not some other failure that happened to come first.
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^AbortError: This operation was aborted$/);
    expect(error).not.toBeInstanceOf(AttachmentError);
  });
});

describe('mcp handler: size threshold', () => {
  it('rejects a resource over max bytes, naming the setting', async () => {
    const error = await failure(attach(['mcp+fixture+fixture://docs/readme'], context({ limits: { maxResourceBytes: 10, sizePolicy: 'reject' } })));
    expect(error.message).toMatch(/fixture:\/\/docs\/readme is \d+ bytes, over the limit of 10 bytes; set conversation\.attachment\.size_policy/);
  });

  it('truncates on a UTF-8 boundary and says so in the description', async () => {
    const [readme] = await attach(['mcp+fixture+fixture://docs/readme'], context({ limits: { maxResourceBytes: 9, sizePolicy: 'truncate' } }));
    expect(readme).toMatchObject({ text: '# Fixture', name: 'readme' });
    expect(readme?.description).toMatch(/^truncated: the first 9 of \d+ bytes/);
  });

  it('asks when the policy is ask and someone is at the terminal', async () => {
    const asked: Array<[string, number, number]> = [];
    const ctx = { ...context({ limits: { maxResourceBytes: 10, sizePolicy: 'ask' } }), askOversize: async (name: string, bytes: number, limit: number) => (asked.push([name, bytes, limit]), 'allow' as const) };
    const [readme] = await attach(['mcp+fixture+fixture://docs/readme'], ctx);
    expect(readme !== undefined && isTextResource(readme) && readme.text).toBe(FIXTURE_README);
    expect(asked).toEqual([['fixture://docs/readme', Buffer.byteLength(FIXTURE_README), 10]]);
  });
});

describe('mcp handler: refresh and covers', () => {
  it('refreshes the mcp+<server>+<uri> form', async () => {
    const resource = await handler.refresh('mcp+fixture+fixture://notes/9', context());
    expect(resource).toMatchObject({ uri: 'fixture://notes/9', text: 'note 9\n', name: 'note' });
  });

  it('refreshes a part of a read, and a declaration covers its parts', async () => {
    const part = await handler.refresh('mcp+fixture+fixture://pair#part=2', context());
    expect(part).toMatchObject({ uri: 'fixture://pair#part=2', mimeType: 'image/png' });
    expect(handler.covers('mcp+fixture+fixture://pair', 'fixture://pair#part=2', context())).toBe(true);
    expect(handler.covers('mcp+fixture+fixture://pair', 'fixture://pair#other', context())).toBe(false);
  });

  it('refuses a bare server URI: it does not say which server', async () => {
    const error = await failure(handler.refresh('fixture://notes/9', context()));
    expect(error.message).toBe('cannot refresh fixture://notes/9 without its server; refresh it as mcp+<server>+fixture://notes/9');
    expect(error.code).toBe('mcp_refresh_needs_server');
  });

  it('a declaration covers the resource with its URI, compared as URLs', () => {
    const ctx = context();
    expect(handler.covers('mcp+fixture+fixture://docs/readme', 'fixture://docs/readme', ctx)).toBe(true);
    expect(handler.covers('mcp+fixture+fixture://docs/./readme', 'fixture://docs/readme', ctx)).toBe(true);
    expect(handler.covers('mcp+fixture+fixture://docs/readme', 'fixture://docs/readme2', ctx)).toBe(false);
    expect(handler.covers('mcp+fixture+fixture://files/{+path}', 'fixture://files/a', ctx)).toBe(false);
    expect(handler.covers('src/readme', 'fixture://docs/readme', ctx)).toBe(false);
  });
});
