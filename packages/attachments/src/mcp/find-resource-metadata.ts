import type { McpCatalog } from './list-mcp-catalog.ts';

/** What a server's listing says about one resource URI. */
export interface McpResourceMetadata {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  mimeType?: string | undefined;
  /** Where it came from: the direct resource, or the template `uriTemplate` the URI matched. */
  source: { kind: 'resource' } | { kind: 'template'; uriTemplate: string };
}

/** The WHATWG serialisation of a URI (what SDK servers key their resources by), or the URI itself. */
export function comparableUri(uri: string): string {
  try {
    return new URL(uri).href;
  } catch {
    return uri;
  }
}

/**
 * The SDK's RFC 6570 class (`UriTemplate` of `@modelcontextprotocol/client`), passed in: importing it
 * here would put the whole MCP client in every chunk that reaches the attachment registry.
 */
export type UriTemplateClass = new (template: string) => { match(uri: string): unknown };

/**
 * Whether a URI matches an RFC 6570 template (`{var}`, `{+path}`, …), with the SDK's matcher, the
 * one SDK servers route reads with. A template the matcher cannot parse matches nothing.
 */
export function matchesTemplate(uriTemplate: string, uri: string, UriTemplate: UriTemplateClass): boolean {
  try {
    return new UriTemplate(uriTemplate).match(uri) !== null;
  } catch {
    return false;
  }
}

/**
 * The listing entry for a URI (pure): the direct resource with that URI, else the first template
 * it matches, in the server's order (the order SDK servers try them in). `undefined` when the
 * server lists nothing that fits.
 */
export function findResourceMetadata(
  catalog: Pick<McpCatalog, 'resources' | 'templates'>,
  uri: string,
  UriTemplate: UriTemplateClass,
): McpResourceMetadata | undefined {
  const wanted = comparableUri(uri);
  const direct = catalog.resources.find((entry) => entry.uri === uri) ?? catalog.resources.find((entry) => comparableUri(entry.uri) === wanted);
  if (direct !== undefined) {
    return { name: direct.name, title: direct.title, description: direct.description, mimeType: direct.mimeType, source: { kind: 'resource' } };
  }
  const template = catalog.templates.find((entry) => matchesTemplate(entry.uriTemplate, uri, UriTemplate));
  if (template !== undefined) {
    return {
      name: template.name,
      title: template.title,
      description: template.description,
      mimeType: template.mimeType,
      source: { kind: 'template', uriTemplate: template.uriTemplate },
    };
  }
  return undefined;
}
