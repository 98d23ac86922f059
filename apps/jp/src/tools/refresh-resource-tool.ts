import type { ConversationEvent, Resource } from '@jp/core';
import { resourceSha256 } from '../store/blob-sha256.ts';
import type { ToolDefinition } from '@jp/providers';
import { declarationsEver, originsByUri, refreshable, snapshotOrigins } from '../resolution/refreshable.ts';
import { withCanonicalFileUris } from '../resolution/canonical-file-uri.ts';
import { errorResult, type JpTool, type ToolResult, type ToolRunContext } from './jp-tool.ts';

/**
 * The definition is a constant: byte-identical on every turn, with no list of URIs in it, so
 * offering the tool never disturbs a prompt cache.
 */
export const REFRESH_RESOURCE_DEFINITION: ToolDefinition = Object.freeze({
  name: 'refresh_resource',
  description:
    'Read a resource attached to this conversation again and return its current content. ' +
    'Attached resources are snapshots taken when they were attached; call this when you need to know ' +
    'whether one has changed since (for example after a file was edited). Only URIs of resources already ' +
    'in this conversation can be refreshed.',
  parameters: Object.freeze({
    type: 'object',
    properties: Object.freeze({ uri: Object.freeze({ type: 'string', description: 'The URI of a resource in this conversation, exactly as given.' }) }),
    required: Object.freeze(['uri']),
    additionalProperties: false,
  }) as Record<string, unknown>,
}) as ToolDefinition;

/** The newest snapshot of each URI in the stream: the turn it is in and its checksum. */
export function newestSnapshots(events: readonly ConversationEvent[]): Map<string, { turn: number; sha256: string; where: string }> {
  const newest = new Map<string, { turn: number; sha256: string; where: string }>();
  let turn = -1;
  const note = (resource: Resource, where: string) => newest.set(resource.uri, { turn, sha256: resourceSha256(resource), where });
  for (const event of events) {
    if (event.type === 'turn_start') turn++;
    else if (event.type === 'chat_request') {
      for (const resource of (event as { resources: Resource[] }).resources) note(resource, 'attached');
    } else if (event.type === 'tool_call_response') {
      for (const block of (event as { content: Array<{ type: string; resource?: Resource }> }).content) {
        if (block.type === 'resource' && block.resource) note(block.resource, 'returned by a tool');
      }
    }
  }
  return newest;
}

async function refresh(args: Record<string, unknown>, ctx: ToolRunContext): Promise<ToolResult> {
  const uri = args.uri;
  if (typeof uri !== 'string' || uri === '') return errorResult('refresh_resource needs {"uri": "<uri of a resource in this conversation>"}');
  const decision = refreshable(uri, {
    workspaceRoot: ctx.workspaceRoot,
    origins: originsByUri(snapshotOrigins(ctx.events)),
    declarations: declarationsEver(ctx.declarations, ctx.events),
    covers: (declaration, candidate) => ctx.registry.covers(declaration, candidate, ctx.handlerContext),
    mcpServerOfTool: ctx.mcpServerOfTool,
  });
  const snapshot = newestSnapshots(ctx.events).get(uri);
  if (!decision.refreshable || snapshot === undefined) return errorResult(decision.refreshable ? `${uri} is not a resource in this conversation` : decision.reason);
  let resource: Resource;
  try {
    resource = await ctx.registry.refresh(decision.input, ctx.handlerContext);
  } catch (error) {
    return errorResult(`refreshing ${uri} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (decision.input.startsWith('mcp+')) {
    // What a server answers may name any URI: its files outside the workspace are not kept, as in its tool results.
    const [kept] = withCanonicalFileUris([{ type: 'resource', resource }], ctx.workspaceRoot).content;
    if (kept?.type !== 'resource') return errorResult(`refreshing ${uri}: the server answered with a file outside the workspace, which jp does not keep`);
    resource = kept.resource;
  }
  const sha256 = resourceSha256(resource);
  if (sha256 === snapshot.sha256) {
    return {
      content: [{ type: 'text', text: `${uri} is unchanged since the snapshot ${snapshot.where} in turn ${snapshot.turn} (sha256 ${sha256}).` }],
      isError: false,
    };
  }
  return { content: [{ type: 'resource', resource }], isError: false };
}

export const refreshResourceTool: JpTool = { definition: REFRESH_RESOURCE_DEFINITION, run: 'unattended', call: refresh };
