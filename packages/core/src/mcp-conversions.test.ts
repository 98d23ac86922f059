import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolResultSchema,
  type CallToolResult,
  type EmbeddedResource,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  contentFromMcpToolResult,
  resourceFromMcpContents,
  resourceFromMcpEmbedded,
  type McpCallToolResult,
  type McpEmbeddedResource,
  type McpResourceContents,
} from './mcp-conversions.ts';
import { ContentBlockSchema } from './content-block.ts';
import { isBlobResource, isTextResource } from './resource-content.ts';
import { resourceToJson, type LoadedResource } from './resource.ts';

// Compile-time: what the SDK hands us must be accepted by our structural types without casts.
type SdkResourceContents = ReadResourceResult['contents'][number];
const acceptContents = (contents: SdkResourceContents): McpResourceContents => contents;
const acceptEmbedded = (embedded: EmbeddedResource): McpEmbeddedResource => embedded;
const acceptToolResult = (result: CallToolResult): McpCallToolResult => result;

const README_TEXT = '# Demo\n\nUnicode survives: héllo ✓ 🦀\n';
const PIXEL = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff]);
const PIXEL_B64 = Buffer.from(PIXEL).toString('base64');
const WAV = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0x24, 0x00]);
const SHORT = new Uint8Array([1, 2, 3, 4, 5, 6, 7]);
/** What some servers send: no padding, or MIME-style line breaks. The SDK's `atob` check accepts both. */
const SHORT_UNPADDED = Buffer.from(SHORT).toString('base64').replace(/=+$/, '');
const SHORT_WRAPPED = `${Buffer.from(SHORT).toString('base64').slice(0, 4)}\n${Buffer.from(SHORT).toString('base64').slice(4)}`;

const server = new McpServer({ name: 'core-test', version: '1.0.0' });
server.registerResource(
  'readme',
  'demo://docs/readme.md',
  { title: 'Readme', description: 'The demo readme', mimeType: 'text/markdown' },
  async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: README_TEXT }] }),
);
server.registerResource('pixel', 'demo://images/pixel.png', { mimeType: 'image/png' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'image/png', blob: PIXEL_B64, _meta: { origin: 'test' } }],
}));
server.registerResource('unpadded', 'demo://bin/unpadded', {}, async (uri) => ({
  contents: [
    { uri: uri.href, blob: SHORT_UNPADDED },
    { uri: `${uri.href}#wrapped`, blob: SHORT_WRAPPED },
  ],
}));
server.registerTool('inspect', { description: 'Returns every content kind' }, async () => ({
  content: [
    { type: 'text', text: 'Found 1 document and 1 image.' },
    {
      type: 'resource',
      resource: { uri: 'demo://docs/readme.md', mimeType: 'text/markdown', text: README_TEXT },
      annotations: { audience: ['assistant'], priority: 0.9, lastModified: '2026-03-20T10:00:00Z' },
    },
    { type: 'image', data: PIXEL_B64, mimeType: 'image/png', annotations: { audience: ['user'] } },
    { type: 'resource_link', uri: 'demo://docs/large.pdf', name: 'large.pdf', mimeType: 'application/pdf' },
    { type: 'resource', resource: { uri: 'demo://images/pixel.png', mimeType: 'image/png', blob: PIXEL_B64 } },
    { type: 'audio', data: Buffer.from(WAV).toString('base64'), mimeType: 'audio/wav' },
  ],
}));
server.registerTool('fail', { description: 'Always fails' }, async () => ({
  content: [{ type: 'text', text: 'permission denied: /etc/shadow' }],
  isError: true,
}));
server.registerTool('count', { description: 'Structured only', outputSchema: { count: z.number() } }, async () => ({
  content: [],
  structuredContent: { count: 3 },
}));

const client = new Client({ name: 'core-test-client', version: '1.0.0' });

beforeAll(async () => {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
});

afterAll(async () => {
  await client.close();
  await server.close();
});

async function read(uri: string): Promise<SdkResourceContents[]> {
  return (await client.readResource({ uri })).contents;
}

async function call(name: string): Promise<CallToolResult> {
  // The client already validated the result with this schema; parsing again narrows the type
  // away from the legacy `{ toolResult }` form.
  return CallToolResultSchema.parse(await client.callTool({ name }));
}

/** The keys jp adds on top of MCP; none may appear on a resource built from MCP data. */
const EXTENSIONS = ['name', 'title', 'description', 'formatted'];

function expectNoExtensions(resource: LoadedResource): void {
  for (const key of EXTENSIONS) expect(resource).not.toHaveProperty(key);
  for (const key of EXTENSIONS) expect(resourceToJson(resource)).not.toHaveProperty(key);
}

describe('resourceFromMcpContents with resources/read results', () => {
  it('converts a text resource without fabricating anything', async () => {
    const [contents] = await read('demo://docs/readme.md');
    if (contents === undefined) throw new Error('no contents');
    const resource = resourceFromMcpContents(acceptContents(contents));
    expect(resource).toEqual({ uri: 'demo://docs/readme.md', mimeType: 'text/markdown', text: README_TEXT });
    expect(isTextResource(resource)).toBe(true);
    // The server registered a title and description for the resource; resources/read does not carry them.
    expectNoExtensions(resource);
  });

  it('converts a blob resource to the same bytes and keeps _meta', async () => {
    const [contents] = await read('demo://images/pixel.png');
    if (contents === undefined) throw new Error('no contents');
    const resource = resourceFromMcpContents(contents);
    expect(isBlobResource(resource)).toBe(true);
    expect(isBlobResource(resource) && [...resource.blob]).toEqual([...PIXEL]);
    expect(resource._meta).toEqual({ origin: 'test' });
    expect(resourceToJson(resource)).toEqual({
      uri: 'demo://images/pixel.png',
      mimeType: 'image/png',
      _meta: { origin: 'test' },
      blob: PIXEL_B64,
    });
    expectNoExtensions(resource);
  });

  it('accepts the unpadded and line-wrapped base64 the SDK lets through, and stores it canonically', async () => {
    const [unpadded, wrapped] = await read('demo://bin/unpadded');
    // The SDK passed both on unchanged.
    expect(unpadded && 'blob' in unpadded && unpadded.blob).toBe(SHORT_UNPADDED);
    expect(wrapped && 'blob' in wrapped && wrapped.blob).toBe(SHORT_WRAPPED);
    for (const contents of [unpadded, wrapped]) {
      if (contents === undefined) throw new Error('no contents');
      const resource = resourceFromMcpContents(contents);
      expect(isBlobResource(resource) && [...resource.blob]).toEqual([...SHORT]);
      expect(resourceToJson(resource)).toMatchObject({ blob: Buffer.from(SHORT).toString('base64') });
    }
  });

  it('throws on contents with neither text nor blob, or with base64 the SDK would reject', () => {
    expect(() => resourceFromMcpContents({ uri: 'demo://empty' })).toThrow(/demo:\/\/empty has neither text nor blob/);
    expect(() => resourceFromMcpContents({ uri: 'demo://bad', blob: 'not*base64' })).toThrow(/demo:\/\/bad has invalid base64/);
  });

  it('prefers text when a server sends both', () => {
    const resource = resourceFromMcpContents({ uri: 'demo://both', text: 'a', blob: 'Yg==' });
    expect(resource).toEqual({ uri: 'demo://both', text: 'a' });
  });
});

describe('contentFromMcpToolResult with tools/call results', () => {
  it('converts text, embedded resources, images and audio in order and reports resource_link', async () => {
    const result = await call('inspect');
    const converted = contentFromMcpToolResult(acceptToolResult(result));
    expect(converted.isError).toBe(false);
    expect(converted.content.map((block) => (block.type === 'resource' ? `resource:${block.resource.uri}` : block.type))).toEqual([
      'text',
      'resource:demo://docs/readme.md',
      'resource:data:image/png;base64,',
      'resource:demo://images/pixel.png',
      'resource:data:audio/wav;base64,',
    ]);
    expect(converted.unconverted).toEqual([
      {
        index: 3,
        block: { type: 'resource_link', uri: 'demo://docs/large.pdf', name: 'large.pdf', mimeType: 'application/pdf' },
      },
    ]);
  });

  it('keeps the text block verbatim', async () => {
    const [text] = contentFromMcpToolResult(await call('inspect')).content;
    expect(text).toEqual({ type: 'text', text: 'Found 1 document and 1 image.' });
  });

  it('keeps the annotations of a text block; leaves out ones MCP does not allow', () => {
    const converted = contentFromMcpToolResult({
      content: [
        { type: 'text', text: 'for you', annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-01-02T03:04:05Z' } },
        { type: 'text', text: 'odd', annotations: { priority: 7 } },
      ],
    });
    expect(converted.content).toEqual([
      { type: 'text', text: 'for you', annotations: { audience: ['user'], priority: 0.5, lastModified: '2026-01-02T03:04:05Z' } },
      { type: 'text', text: 'odd' },
    ]);
    // What the conversation stores parses back with them.
    expect(ContentBlockSchema.parse(converted.content[0])).toEqual(converted.content[0]);
  });

  it('carries the block annotations of an embedded resource and fabricates nothing', async () => {
    const block = contentFromMcpToolResult(await call('inspect')).content[1];
    if (block?.type !== 'resource') throw new Error('expected a resource block');
    expect(block).not.toHaveProperty('formatted');
    expect(block.resource).toEqual({
      uri: 'demo://docs/readme.md',
      mimeType: 'text/markdown',
      annotations: { audience: ['assistant'], priority: 0.9, lastModified: '2026-03-20T10:00:00Z' },
      text: README_TEXT,
    });
    expectNoExtensions(block.resource);
  });

  it('turns an image into a blob resource with the same bytes and its annotations', async () => {
    const block = contentFromMcpToolResult(await call('inspect')).content[2];
    if (block?.type !== 'resource') throw new Error('expected a resource block');
    expect(block.resource.mimeType).toBe('image/png');
    expect(block.resource.annotations).toEqual({ audience: ['user'] });
    expect(isBlobResource(block.resource) && [...block.resource.blob]).toEqual([...PIXEL]);
    // The bytes live in blob; the URI does not repeat them.
    expect(block.resource.uri).not.toContain(PIXEL_B64);
    expectNoExtensions(block.resource);
  });

  it('keeps an embedded blob resource as bytes', async () => {
    const block = contentFromMcpToolResult(await call('inspect')).content[3];
    if (block?.type !== 'resource') throw new Error('expected a resource block');
    expect(isBlobResource(block.resource) && [...block.resource.blob]).toEqual([...PIXEL]);
    expect(block.resource).not.toHaveProperty('annotations');
    expectNoExtensions(block.resource);
  });

  it('turns audio into a blob resource', async () => {
    const block = contentFromMcpToolResult(await call('inspect')).content[4];
    if (block?.type !== 'resource') throw new Error('expected a resource block');
    expect(block.resource.mimeType).toBe('audio/wav');
    expect(isBlobResource(block.resource) && [...block.resource.blob]).toEqual([...WAV]);
  });

  it('passes isError through', async () => {
    const converted = contentFromMcpToolResult(await call('fail'));
    expect(converted).toEqual({
      content: [{ type: 'text', text: 'permission denied: /etc/shadow' }],
      isError: true,
      unconverted: [],
    });
  });

  it('falls back to structuredContent as JSON text when there is no content', async () => {
    const result = await call('count');
    expect(result.structuredContent).toEqual({ count: 3 });
    expect(contentFromMcpToolResult(result).content).toEqual([{ type: 'text', text: '{"count":3}' }]);
  });

  it('handles a result without content', () => {
    expect(contentFromMcpToolResult({})).toEqual({ content: [], isError: false, unconverted: [] });
  });
});

describe('resourceFromMcpEmbedded', () => {
  it('uses annotations of the contents over those of the block', () => {
    const resource = resourceFromMcpEmbedded({
      type: 'resource',
      resource: { uri: 'demo://x', text: 'x', annotations: { priority: 0.1 } },
      annotations: { priority: 0.9 },
    });
    expect(resource.annotations).toEqual({ priority: 0.1 });
  });

  it('converts an SDK EmbeddedResource value', () => {
    const embedded: EmbeddedResource = {
      type: 'resource',
      resource: { uri: 'demo://y', mimeType: 'image/png', blob: PIXEL_B64 },
      annotations: { audience: ['assistant'] },
    };
    const resource = resourceFromMcpEmbedded(acceptEmbedded(embedded));
    expect(resource.annotations).toEqual({ audience: ['assistant'] });
    expect(isBlobResource(resource) && [...resource.blob]).toEqual([...PIXEL]);
    expectNoExtensions(resource);
  });
});
