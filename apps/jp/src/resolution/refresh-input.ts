import type { AttachmentRegistry, HandlerContext } from '@jp/attachments';

/** What re-reading a URI needs: the handlers and the conversation's declarations. */
export interface RefreshRouting {
  registry: AttachmentRegistry;
  declarations: readonly string[];
  handlerContext: HandlerContext;
}

/**
 * The input that re-reads a URI: the URI itself when a handler owns its scheme (file, http, cmd),
 * else the declaration that produced it, re-targeted at this URI (an MCP server's own URIs are
 * reached through `mcp+<server>+<uri>`). `undefined` when nothing knows how to read it again.
 * Used by `refresh_resource` and by `jp attachment ls --check`.
 */
export function refreshInput(uri: string, routing: RefreshRouting): string | undefined {
  if (routing.registry.handlerForUri(uri) !== undefined) return uri;
  const declaration = routing.declarations.find((candidate) => routing.registry.covers(candidate, uri, routing.handlerContext));
  if (declaration === undefined) return undefined;
  const mcp = /^(mcp\+[^+]+\+)/.exec(declaration);
  return mcp ? `${mcp[1]}${uri}` : declaration;
}
