import { AttachmentError, loadSchemas, type LoadedResource, type Resource } from '@jp/core';
import type { Client } from '@modelcontextprotocol/client';
import type { AttachmentHandler, HandlerContext, McpClients } from '../handler.ts';
import { comparableUri, findResourceMetadata, type McpResourceMetadata } from './find-resource-metadata.ts';
import { settledResources } from '../unique-by-uri.ts';
import { limitMcpResource } from './limit-mcp-resource.ts';
import { listMcpCatalog, type McpCatalog } from './list-mcp-catalog.ts';
import { mcpReadError, serverMessage } from './mcp-read-error.ts';
import { numberRepeatedUris, splitPartUri } from './part-uri.ts';
import { mcpDeclaration, parseMcpUrl, tryParseMcpUrl, type McpUrl } from './parse-mcp-url.ts';

/** The configured clients, or an error naming the attachment and saying how to configure the server. */
function clientsFor(input: string, server: string, ctx: HandlerContext): McpClients {
  const names = ctx.mcp?.names() ?? [];
  if (ctx.mcp !== undefined && names.includes(server)) return ctx.mcp;
  const add = `add [mcp.${server}] with a command (and args) to .jp/config.toml`;
  const message =
    names.length === 0
      ? `${input}: no MCP servers are configured; ${add}`
      : `${input}: no MCP server "${server}" is configured (configured: ${names.join(', ')}); use one of those or ${add}`;
  throw new AttachmentError(input, message, { code: 'mcp_unknown_server' });
}

/** Per-`resolve` sharing: one client and one listing per server, however many declarations use it. */
class ServerSession {
  readonly #clients = new Map<string, Promise<Client>>();
  readonly #listings = new Map<string, Promise<{ listed: McpCatalog } | { error: unknown }>>();
  readonly #catalogs = new Map<string, Promise<McpCatalog | undefined>>();
  constructor(private readonly ctx: HandlerContext) {}

  client(input: string, server: string): Promise<Client> {
    let client = this.#clients.get(server);
    if (client === undefined) {
      client = clientsFor(input, server, this.ctx).get(server);
      this.#clients.set(server, client);
    }
    return client;
  }

  /** Starts the server's listing (once), so that it runs while the resource is read. */
  startCatalog(server: string, client: Client): void {
    if (this.#listings.has(server)) return;
    const listing = listMcpCatalog(client, { signal: this.ctx.signal }).then(
      (listed) => ({ listed }),
      (error: unknown) => ({ error }),
    );
    this.#listings.set(server, listing);
  }

  /** The server's listing, for names; a failure only costs the names (and warns once). */
  catalog(server: string, client: Client): Promise<McpCatalog | undefined> {
    let catalog = this.#catalogs.get(server);
    if (catalog === undefined) {
      this.startCatalog(server, client);
      // The warning waits for a read that needs the names: a failed read says nothing of the listing.
      catalog = this.#listings.get(server)!.then((outcome) => {
        if ('error' in outcome) {
          this.ctx.logger.warn(`could not list the resources of MCP server ${server} (${serverMessage(outcome.error)}); its resources are attached without names`);
          return undefined;
        }
        if (outcome.listed.truncated) this.ctx.logger.warn(`MCP server ${server} lists more pages than jp reads; some resources may lack names`);
        return outcome.listed;
      });
      this.#catalogs.set(server, catalog);
    }
    return catalog;
  }
}

/** Adds the listing's name, title and description; the listing's MIME type only when the read gave none. */
function withMetadata(resource: LoadedResource, metadata: McpResourceMetadata | undefined): LoadedResource {
  if (metadata === undefined) return resource;
  const extra: Partial<Pick<Resource, 'name' | 'title' | 'description' | 'mimeType'>> = { name: metadata.name };
  if (metadata.title !== undefined) extra.title = metadata.title;
  if (metadata.description !== undefined) extra.description = metadata.description;
  if (resource.mimeType === undefined && metadata.mimeType !== undefined) extra.mimeType = metadata.mimeType;
  return { ...resource, ...extra };
}

/**
 * Reads one MCP URL (`resources/read`) into resources: every content of the answer becomes one,
 * contents repeating a URI numbered with a part marker so that none is lost to URI de-duplication.
 */
async function readMcpUrl(input: string, asked: McpUrl, session: ServerSession, ctx: HandlerContext): Promise<LoadedResource[]> {
  // A part of a read (`…#part=2`, see part-uri.ts) is read whole; the part is picked at the end.
  const { uri: serverUri, part } = splitPartUri(asked.uri);
  const url = { ...asked, uri: serverUri };
  let contents;
  let client: Client | undefined;
  try {
    client = await session.client(input, url.server);
    session.startCatalog(url.server, client);
    contents = (await client.readResource({ uri: url.uri }, { signal: ctx.signal })).contents;
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    throw mcpReadError(input, url, error, client?.getServerCapabilities()?.resources !== undefined);
  }
  if (contents.length === 0) {
    throw new AttachmentError(input, `${input}: server ${url.server} returned no contents for ${url.uri}`, { code: 'mcp_resource_empty' });
  }
  const catalog = await session.catalog(url.server, client);
  // The core's schemas load with the first server's answer, not with this package (RFD 005).
  const { resourceFromMcpContents } = await loadSchemas();
  const resources: LoadedResource[] = [];
  for (const content of contents) {
    let resource: LoadedResource;
    try {
      resource = resourceFromMcpContents(content);
    } catch (error) {
      throw new AttachmentError(input, `${input}: server ${url.server} sent unusable contents for ${content.uri}: ${serverMessage(error)}`, {
        code: 'mcp_resource_invalid',
        cause: error,
      });
    }
    const metadata = catalog === undefined ? undefined : findResourceMetadata(catalog, content.uri, (await import('@modelcontextprotocol/client')).UriTemplate);
    resources.push(await limitMcpResource(withMetadata(resource, metadata), input, ctx));
  }
  const numbered = numberRepeatedUris(resources);
  if (part === 1) return numbered;
  const wanted = comparableUri(asked.uri);
  const picked = numbered.filter((resource) => comparableUri(resource.uri) === wanted);
  if (picked.length === 0) {
    throw new AttachmentError(input, `${input}: server ${url.server} returned fewer than ${part} contents for ${url.uri}`, { code: 'mcp_resource_not_found' });
  }
  return picked;
}

/**
 * The handler for resources of configured MCP servers: `mcp+<server>+<resource uri>`. The
 * declaration is that URL; each resource's URI is the server's own URI, as the server returned it,
 * with the name, title and description the server lists for it (directly or by template).
 */
export function createMcpHandler(): AttachmentHandler {
  return {
    schemes: ['mcp+'],

    async validate(input: string, ctx: HandlerContext): Promise<string> {
      // Syntax and configuration only: no server is started to add or check a declaration.
      const url = parseMcpUrl(input);
      clientsFor(input, url.server, ctx);
      return mcpDeclaration(url);
    },

    async resolve(declarations: readonly string[], ctx: HandlerContext): Promise<Resource[]> {
      const urls = declarations.map((declaration) => {
        const url = parseMcpUrl(declaration);
        clientsFor(declaration, url.server, ctx);
        return url;
      });
      const session = new ServerSession(ctx);
      let done = 0;
      // Servers start and reads run concurrently; the first failure in declaration order wins.
      const settled = await Promise.allSettled(
        urls.map(async (url, index) => {
          const declaration = declarations[index]!;
          const resources = await readMcpUrl(declaration, url, session, ctx);
          ctx.progress?.update(++done, declaration);
          return resources;
        }),
      );
      return settledResources(settled);
    },

    async refresh(uri: string, ctx: HandlerContext): Promise<Resource> {
      const url = tryParseMcpUrl(uri);
      if (url === undefined) {
        throw new AttachmentError(uri, `cannot refresh ${uri} without its server; refresh it as mcp+<server>+${uri}`, { code: 'mcp_refresh_needs_server' });
      }
      const input = mcpDeclaration(url);
      clientsFor(input, url.server, ctx);
      const resources = await readMcpUrl(input, url, new ServerSession(ctx), ctx);
      const wanted = comparableUri(url.uri);
      return resources.find((resource) => comparableUri(resource.uri) === wanted) ?? resources[0]!;
    },

    covers(declaration: string, uri: string): boolean {
      const url = tryParseMcpUrl(declaration);
      return url !== undefined && comparableUri(url.uri) === comparableUri(splitPartUri(uri).uri);
    },
  };
}
