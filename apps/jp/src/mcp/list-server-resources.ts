import type { Client } from '@modelcontextprotocol/client';

/** A direct resource as `jp mcp resources` shows it (the MCP fields that say what it is). */
export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ListedTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ServerResources {
  resources: ListedResource[];
  templates: ListedTemplate[];
  /** False when the server does not offer resources at all. */
  offersResources: boolean;
  /** A listing stopped at the page limit with more pages offered. */
  truncated: boolean;
}

/** Pages read per listing before giving up on a server that keeps returning cursors. */
const MAX_PAGES = 100;
const METHOD_NOT_FOUND = -32601;

async function allPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>) {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === '' || seen.has(cursor)) return { items, truncated: false };
    seen.add(cursor);
  }
  return { items, truncated: true };
}

function pick<T extends object, K extends keyof T>(entry: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (entry[key] !== undefined) out[key] = entry[key];
  return out;
}

/**
 * Every direct resource and template of a server, all pages of each (the same walk the MCP
 * attachment handler does for names). A server that answers either listing with -32601 has none of that kind.
 */
export async function listServerResources(client: Client): Promise<ServerResources> {
  if (client.getServerCapabilities()?.resources === undefined) return { resources: [], templates: [], offersResources: false, truncated: false };
  const resources = await allPages(async (cursor) => {
    // One page per request: without a cursor the SDK's listResources walks every page itself.
    const page = await client.request({ method: 'resources/list', params: cursor === undefined ? {} : { cursor } });
    return { items: page.resources.map((entry) => pick(entry, ['uri', 'name', 'title', 'description', 'mimeType'] as const)), nextCursor: page.nextCursor };
  }).catch((error: unknown) => {
    // Advertises resources, lists none of them (RFD 018): they can still be read by URI.
    if ((error as { code?: unknown }).code === METHOD_NOT_FOUND) return { items: [], truncated: false };
    throw error;
  });
  const templates = await allPages(async (cursor) => {
    const page = await client.request({ method: 'resources/templates/list', params: cursor === undefined ? {} : { cursor } });
    return {
      items: page.resourceTemplates.map((entry) => pick(entry, ['uriTemplate', 'name', 'title', 'description', 'mimeType'] as const)),
      nextCursor: page.nextCursor,
    };
  }).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === METHOD_NOT_FOUND) return { items: [], truncated: false };
    throw error;
  });
  return { resources: resources.items, templates: templates.items, offersResources: true, truncated: resources.truncated || templates.truncated };
}
