import type { Client } from '@modelcontextprotocol/client';
import type { Resource as McpResource, ResourceTemplateType as McpResourceTemplate } from '@modelcontextprotocol/client';

/** What a server says it has: direct resources and resource templates, every page of each. */
export interface McpCatalog {
  resources: McpResource[];
  templates: McpResourceTemplate[];
  /** A listing stopped at `maxPages` while the server still offered a next page. */
  truncated: boolean;
}

/** Pages read per listing before giving up on a server that keeps returning cursors. */
export const MAX_LIST_PAGES = 100;

const METHOD_NOT_FOUND = -32601;

/** Every item of a paginated MCP listing, following `nextCursor` up to `maxPages` pages. */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
  maxPages = MAX_LIST_PAGES,
): Promise<{ items: T[]; truncated: boolean }> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    cursor = result.nextCursor ?? undefined;
    // A cursor seen before would loop forever: treat it as the end.
    if (cursor === undefined || cursor === '' || seen.has(cursor)) return { items, truncated: false };
    seen.add(cursor);
  }
  return { items, truncated: true };
}

function isMethodNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === METHOD_NOT_FOUND;
}

/**
 * Lists a server's resources and templates (`resources/list`, `resources/templates/list`), all
 * pages. A server without the resources capability has neither. One that advertises resources but
 * answers a listing with -32601 (method not found) lists none of that kind (RFD 018): its
 * resources can still be read by URI. Other errors propagate.
 */
export async function listMcpCatalog(client: Client, options: { signal?: AbortSignal | undefined; maxPages?: number } = {}): Promise<McpCatalog> {
  if (client.getServerCapabilities()?.resources === undefined) return { resources: [], templates: [], truncated: false };
  const request = options.signal === undefined ? undefined : { signal: options.signal };
  /** Every page of one listing; a server that does not have the method lists nothing of that kind. */
  const listAll = <T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>) =>
    collectPages(page, options.maxPages).catch((error: unknown) => {
      if (isMethodNotFound(error)) return { items: [] as T[], truncated: false };
      throw error;
    });
  // Both listings at once: a server answers them independently.
  const [resources, templates] = await Promise.all([
    listAll(async (cursor) => {
      // One page per request: without a cursor the SDK's listResources walks every page itself, past jp's page limit.
      const page = await client.request({ method: 'resources/list', params: cursor === undefined ? {} : { cursor } }, request);
      return { items: page.resources, nextCursor: page.nextCursor };
    }),
    listAll(async (cursor) => {
      const page = await client.request({ method: 'resources/templates/list', params: cursor === undefined ? {} : { cursor } }, request);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    }),
  ]);
  return { resources: resources.items, templates: templates.items, truncated: resources.truncated || templates.truncated };
}
