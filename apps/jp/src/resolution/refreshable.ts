import type { ConversationEvent, Resource } from '@jp/core';
import { schemeOf } from '@jp/attachments';
import { canonicalFileUri } from './canonical-file-uri.ts';
import { isDeclarationTable } from '../config/attachment-declaration.ts';

/** One snapshot of a URI in the stored stream, and who put it there. */
export interface SnapshotOrigin {
  uri: string;
  /** The tool whose result carried it; absent for a resource of a `chat_request` (what the user attached). */
  tool?: string | undefined;
}

/** Who put each URI in the stream, in stream order: `undefined` for the user, else a tool's name. */
export type OriginsByUri = ReadonlyMap<string, ReadonlyArray<string | undefined>>;

/** What the stored stream and the configuration say about where the URIs of a conversation came from. */
export interface RefreshEvidence {
  /** The workspace root (real path): `file:` URIs outside it are never re-read. */
  workspaceRoot: string;
  /** Every resource snapshot of the stream, by URI (`originsByUri`). */
  origins: OriginsByUri;
  /** Every declaration the conversation has had (see `declarationsEver`). */
  declarations: readonly string[];
  /** Whether a declaration produces the URI (the registry's `covers`). */
  covers: (declaration: string, uri: string) => boolean;
  /** The configured MCP server a tool name belongs to, when exactly one does (`mcpServerOfTool`). */
  mcpServerOfTool: (tool: string) => string | undefined;
}

/** Whether a URI may be read again, and if so the input that reads it (for `registry.refresh`). */
export type RefreshDecision =
  | { refreshable: true; input: string; because: 'declared' | 'workspace-file' | 'mcp-result' }
  | { refreshable: false; reason: string };

const MCP_DECLARATION = /^mcp\+([^+]+)\+/i;

const refused = (reason: string): RefreshDecision => ({ refreshable: false, reason });

/** Why a URI that no attachment of the user's produced is not re-read, by what re-reading it would do. */
function notTheUsers(uri: string, scheme: string | undefined): string {
  const why = `${uri} cannot be refreshed: the user did not attach it (a tool result or a server's answer named it)`;
  const allow = 'the user can attach it (--attach, or jp attachment add) to allow it';
  if (scheme === 'cmd') return `${why}, and refreshing it would let whoever named it choose a command for jp to run; ${allow}`;
  if (scheme === 'http' || scheme === 'https') return `${why}, and refreshing it would let whoever named it choose a URL for jp to fetch; ${allow}`;
  return `${why}, it is not a file in the workspace, and no MCP server's tool returned it; ${allow}`;
}

/** Whether a `file:` URI's path, as written, lies in the workspace (the file handler then checks the real path). */
function insideWorkspace(uri: string, workspaceRoot: string): boolean {
  try {
    canonicalFileUri(uri, workspaceRoot);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `refresh_resource` (and `jp attachment ls --check`) may read `uri` again, decided from
 * the stored stream alone — never from what the model asks:
 * 1. `external:`, `stdin:` and `data:` snapshots have no source to read again; any other URI must
 *    be a resource of this conversation;
 * 2. a URI a declaration of the user covers is read through that declaration's handler (an MCP
 *    declaration's server for an MCP URI);
 * 3. a `file:` URI, from any source, whose path is in the workspace is read by the file handler,
 *    which reads it only if its real path (symlinks followed) is in the workspace too;
 * 4. a URI an MCP server returned in its tool result is read through that server (the newest one
 *    that returned it), never through another server or another handler;
 * 5. nothing else: a `cmd:` or `http(s):` URI that only a tool or the model produced would let them
 *    choose what jp runs or fetches.
 */
export function refreshable(uri: string, evidence: RefreshEvidence): RefreshDecision {
  const scheme = schemeOf(uri);
  if (scheme === 'external') return refused(`${uri} is a snapshot of a file outside the workspace; it cannot be refreshed (its source is not known to jp)`);
  if (scheme === 'stdin') return refused(`${uri} is a snapshot of piped input; it cannot be refreshed (there is nothing to read again)`);
  if (scheme === 'data') return refused(`${uri} is inline data (an image or audio block); it cannot be refreshed (it has no source to read again)`);
  const origins = evidence.origins.get(uri) ?? [];
  if (origins.length === 0) {
    return refused(`${uri} is not a resource in this conversation; only URIs already attached or returned by tools can be refreshed`);
  }

  const declaration = evidence.declarations.find((candidate) => evidence.covers(candidate, uri));
  if (declaration !== undefined) {
    const server = MCP_DECLARATION.exec(declaration)?.[1];
    return { refreshable: true, input: server === undefined ? uri : `mcp+${server}+${uri}`, because: 'declared' };
  }
  if (scheme === 'file') {
    if (!insideWorkspace(uri, evidence.workspaceRoot)) {
      return refused(`${uri} cannot be refreshed: it names a file outside the workspace, and only workspace files are re-read`);
    }
    return { refreshable: true, input: uri, because: 'workspace-file' };
  }

  let server: string | undefined;
  for (const tool of origins) {
    const returnedBy = tool === undefined ? undefined : evidence.mcpServerOfTool(tool);
    if (returnedBy !== undefined) server = returnedBy;
  }
  if (server !== undefined) return { refreshable: true, input: `mcp+${server}+${uri}`, because: 'mcp-result' };
  return refused(notTheUsers(uri, scheme));
}

/** Snapshots grouped by URI, each URI's origins in order. */
export function originsByUri(snapshots: Iterable<SnapshotOrigin>): Map<string, Array<string | undefined>> {
  const byUri = new Map<string, Array<string | undefined>>();
  for (const { uri, tool } of snapshots) {
    const origins = byUri.get(uri);
    if (origins === undefined) byUri.set(uri, [tool]);
    else origins.push(tool);
  }
  return byUri;
}

/**
 * Every resource snapshot of a stream with its origin: a `chat_request`'s resources are the user's,
 * a `tool_call_response`'s belong to the tool of the `tool_call_request` it answers.
 */
export function snapshotOrigins(events: readonly ConversationEvent[]): SnapshotOrigin[] {
  const toolOfCall = new Map<string, string>();
  const origins: SnapshotOrigin[] = [];
  for (const event of events) {
    if (event.type === 'tool_call_request') {
      const { id, name } = event as { id: string; name: string };
      toolOfCall.set(id, name);
    } else if (event.type === 'chat_request') {
      for (const resource of (event as { resources: Resource[] }).resources) origins.push({ uri: resource.uri });
    } else if (event.type === 'tool_call_response') {
      const { id, content } = event as { id: string; content: Array<{ type: string; resource?: Resource }> };
      // A response no request names is still a tool's, never the user's: it gets a name no tool has.
      const tool = toolOfCall.get(id) ?? '';
      for (const block of content) if (block.type === 'resource' && block.resource) origins.push({ uri: block.resource.uri, tool });
    }
  }
  return origins;
}

/**
 * Every declaration a conversation has had: its configuration now, and every list of attachments
 * its configuration deltas recorded (`--attach`, `jp attachment add|rm`, `-c`). A declaration the
 * user removed later still says the snapshots it produced were the user's.
 */
export function declarationsEver(current: readonly string[], events: readonly ConversationEvent[]): string[] {
  const all = new Set(current);
  for (const event of events) {
    if (event.type !== 'config_delta') continue;
    const attachments = (event as { delta: { conversation?: { attachments?: unknown } } }).delta.conversation?.attachments;
    if (!Array.isArray(attachments)) continue;
    for (const declaration of attachments) {
      if (typeof declaration === 'string') all.add(declaration);
      else if (isDeclarationTable(declaration)) all.add(declaration.url);
    }
  }
  return [...all];
}
