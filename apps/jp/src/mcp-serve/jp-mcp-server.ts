import { JpError } from '@jp/core';
import { McpServer, ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { SEARCH_SCOPES } from '../search/search-scope.ts';
import type { ConversationMetadata } from '../store/conversation-metadata.ts';
import { version } from '../version.ts';
import { completeDigests, completeIds, completeTurns } from './complete-values.ts';
import { conversationEntry } from './conversation-entry.ts';
import type { ConversationReader, ReadConversation } from './conversation-reader.ts';
import { CONVERSATION_TEMPLATE, SNAPSHOT_TEMPLATE, TURN_TEMPLATE, conversationUri } from './jp-uris.ts';
import { BadCursor, listPage } from './list-page.ts';
import type { PathPrivacy } from './public-uri.ts';
import { renderTranscript } from './render-transcript.ts';
import { renderTurn } from './render-turn.ts';
import { ResourceMissing } from './resource-missing.ts';
import { snapshotContents } from './snapshot-contents.ts';

/** What one server instance needs: the workspace's conversations, how paths are hidden, and who tells it about changes. */
export interface JpServerOptions {
  reader: ConversationReader;
  privacy: PathPrivacy;
  /** How changes are noticed, said in the instructions: "watching" or "polling". */
  watching: 'watch' | 'poll';
  /** Called when a client subscribes to / unsubscribes from a conversation. */
  follow(id: string): void;
  unfollow(id: string): void;
}

type Variables = Record<string, string | string[]>;
type Contents = { uri: string; mimeType?: string; text: string } | ReturnType<typeof snapshotContents>;

function variable(variables: Variables, name: string): string {
  const value = variables[name];
  const raw = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  try {
    return decodeURIComponent(raw);
  } catch {
    // A malformed escape names nothing: left as it is, it matches no conversation.
    return raw;
  }
}

/** A failure of one read as the client sees it; no absolute path in it (store messages name files relative to the workspace). */
function protocolError(uri: string, error: unknown): Error {
  if (error instanceof ResourceMissing) return new ResourceNotFoundError(error.uri, error.message);
  if (error instanceof BadCursor) return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
  if (error instanceof JpError) return new ProtocolError(ProtocolErrorCode.InternalError, `cannot read ${uri}: ${error.message}`);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return new ProtocolError(ProtocolErrorCode.InternalError, `cannot read ${uri}: ${typeof code === 'string' ? code : 'internal error'}`);
}

function instructions(watching: 'watch' | 'poll'): string {
  return [
    "jp's conversations in this workspace, read-only. Each is a markdown transcript at jp://conversation/{id};",
    'one turn is jp://conversation/{id}/turn/{n} (from 0); a snapshot attached at a turn is jp://conversation/{id}/resource/{sha256}, byte for byte.',
    `Subscribe to a conversation to hear of new turns; changes are noticed by ${watching === 'watch' ? 'watching the files (fs.watch)' : 'polling the files every second'}.`,
    'The tool search_conversations finds a text in every conversation and links each hit to its jp:// URI.',
  ].join(' ');
}

/** The search tool's input (RFD 033): the pattern, literal unless `regex`, and where and how much to look. */
const SearchInput = z.object({
  pattern: z.string().min(1).describe('the text to look for; a JavaScript regular expression when regex is true'),
  regex: z.boolean().optional().describe('read pattern as a regular expression (JavaScript syntax); each conversation must be searched within 1 s'),
  scope: z
    .union([z.string(), z.array(z.enum(SEARCH_SCOPES))])
    .optional()
    .describe(`where to look: ${SEARCH_SCOPES.join(', ')} or all, comma-separated or a list; default all but reasoning`),
  limit: z.number().int().min(1).max(500).optional().describe('at most this many hits (default 50)'),
  ignoreCase: z.boolean().optional().describe('ignore letter case'),
});

function registerSearch(server: McpServer, jpDir: string, privacy: PathPrivacy): void {
  server.registerTool(
    'search_conversations',
    {
      title: 'Search jp conversations',
      description:
        "Searches this workspace's jp conversations — queries, answers, tool calls and results, attached files and titles — and returns each matching line as ID:TURN:SCOPE:TEXT with a link to its jp:// resource (a turn, a snapshot or a conversation) to read.",
      inputSchema: SearchInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => (await import('./search-tool.ts')).searchTool(jpDir, privacy, args),
  );
}

/**
 * One MCP server over a workspace's conversations (RFD 021): each conversation a resource, three
 * templates, completion of `{id}`, `{n}` and `{sha256}`, subscriptions. `era` is the protocol
 * generation of the connection: resource subscriptions are the 2025 revisions' `resources/subscribe`.
 */
export function createJpMcpServer(options: JpServerOptions, era: 'legacy' | 'modern'): McpServer {
  const { reader, privacy } = options;
  const subscribe = era === 'legacy';
  const server = new McpServer(
    { name: 'jp', version, title: 'jp conversations' },
    { capabilities: { resources: { listChanged: true, ...(subscribe ? { subscribe: true } : {}) }, completions: {} }, instructions: instructions(options.watching) },
  );

  const metadataOf = (id: string): ConversationMetadata | undefined => {
    try {
      return reader.metadataOf(id);
    } catch {
      return undefined;
    }
  };
  const entries = () => reader.ids().map((id) => ({ id, title: metadataOf(id)?.title }));
  const turnCount = (id: string): number => {
    try {
      return reader.read(id).turns.length;
    } catch {
      return metadataOf(id)?.turnCount ?? 0;
    }
  };
  const digests = (id: string): string[] => {
    try {
      return reader.snapshotDigests(reader.read(id));
    } catch {
      return [];
    }
  };
  const completeId = (value: string) => completeIds(value, entries());
  const idOf = (context?: { arguments?: Record<string, string> }) => context?.arguments?.id ?? '';

  const transcript = new ResourceTemplate(CONVERSATION_TEMPLATE, { list: undefined, complete: { id: completeId } });
  registerSearch(server, reader.jpDir, privacy);

  const turn = new ResourceTemplate(TURN_TEMPLATE, {
    list: undefined,
    complete: { id: completeId, n: (value, context) => completeTurns(value, turnCount(idOf(context))) },
  });
  const snapshot = new ResourceTemplate(SNAPSHOT_TEMPLATE, {
    list: undefined,
    complete: { id: completeId, sha256: (value, context) => completeDigests(value, digests(idOf(context))) },
  });

  const readTranscript = (uri: string, variables: Variables): Contents => {
    const conversation = reader.read(variable(variables, 'id'));
    return { uri, mimeType: 'text/markdown', text: renderTranscript(conversation.metadata, conversation.turns, privacy) };
  };
  const readTurn = (uri: string, variables: Variables): Contents => {
    const conversation: ReadConversation = reader.read(variable(variables, 'id'));
    const n = variable(variables, 'n');
    const found = /^(0|[1-9]\d{0,8})$/.test(n) ? conversation.turns[Number(n)] : undefined;
    if (found === undefined) {
      const count = conversation.turns.length;
      const has = count === 0 ? 'has no turns' : count === 1 ? 'has one turn, 0' : `has turns 0 to ${count - 1}`;
      throw new ResourceMissing(uri, `conversation ${conversation.metadata.id} ${has}; there is no turn ${JSON.stringify(n)}`);
    }
    return { uri, mimeType: 'text/markdown', text: renderTurn(found, { conversation: conversation.metadata.id, privacy, level: 1 }) };
  };
  const readSnapshot = (uri: string, variables: Variables): Contents => {
    const conversation = reader.read(variable(variables, 'id'));
    const read = reader.snapshot(conversation, variable(variables, 'sha256').toLowerCase(), uri, privacy.uri);
    return snapshotContents(uri, read, privacy.uri(read.resource.uri));
  };

  // The more specific templates first: a transcript's `{id}` takes no "/", but the order says so too.
  const routes: Array<[ResourceTemplate, (uri: string, variables: Variables) => Contents]> = [
    [snapshot, readSnapshot],
    [turn, readTurn],
    [transcript, readTranscript],
  ];
  const described = {
    [CONVERSATION_TEMPLATE]: { name: 'conversation', title: 'Conversation transcript', description: "A conversation's transcript: each turn's query, answer, tool calls and resources" },
    [TURN_TEMPLATE]: { name: 'turn', title: 'One turn', description: 'One turn of a conversation (n from 0), as markdown' },
    [SNAPSHOT_TEMPLATE]: { name: 'snapshot', title: 'Stored snapshot', description: 'A resource as it was attached, byte for byte; its original URI and turn are in _meta' },
  };
  for (const [template] of routes) {
    const { name, ...metadata } = described[template.uriTemplate.toString() as keyof typeof described];
    const mimeType = template === snapshot ? {} : { mimeType: 'text/markdown' };
    // The read callback is never called: `resources/read` is answered below, with the errors jp means.
    server.registerResource(name, template, { ...metadata, ...mimeType }, () => {
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'unreachable');
    });
  }

  // Paginated (the SDK's own listing is one page), and with a not-found for any jp:// URI no template matches.
  server.server.setRequestHandler('resources/list', async (request) => {
    try {
      const page = listPage(reader.ids(), request.params?.cursor);
      return { resources: page.ids.map((id) => conversationEntry(id, metadataOf(id), privacy)), ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }) };
    } catch (error) {
      throw protocolError('the conversation list', error);
    }
  });
  server.server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    try {
      for (const [template, read] of routes) {
        const variables = template.uriTemplate.match(uri);
        if (variables !== null) return { contents: [read(uri, variables)] };
      }
      throw new ResourceMissing(uri, `${uri} is not a jp resource; they are ${CONVERSATION_TEMPLATE}, ${TURN_TEMPLATE} and ${SNAPSHOT_TEMPLATE}`);
    } catch (error) {
      throw protocolError(uri, error);
    }
  });

  if (subscribe) {
    const subscribed = new Set<string>();
    const conversationOf = (uri: string): string => {
      const variables = transcript.uriTemplate.match(uri);
      if (variables === null) throw new ResourceMissing(uri, `only conversations (${CONVERSATION_TEMPLATE}) change; turns and snapshots never do`);
      const id = variable(variables, 'id');
      reader.metadataOf(id);
      return id;
    };
    server.server.setRequestHandler('resources/subscribe', async (request) => {
      try {
        const id = conversationOf(request.params.uri);
        if (!subscribed.has(id)) options.follow(id);
        subscribed.add(id);
        return {};
      } catch (error) {
        throw protocolError(request.params.uri, error);
      }
    });
    server.server.setRequestHandler('resources/unsubscribe', async (request) => {
      const variables = transcript.uriTemplate.match(request.params.uri);
      const id = variables === null ? undefined : variable(variables, 'id');
      if (id !== undefined && subscribed.delete(id)) options.unfollow(id);
      return {};
    });
    server.server.onclose = () => {
      for (const id of subscribed) options.unfollow(id);
      subscribed.clear();
    };
    (server as McpServerWithSubscriptions).isSubscribed = (id: string) => subscribed.has(id);
  }
  return server;
}

/** A server of the 2025 revisions knows which conversations its client subscribed to. */
export type McpServerWithSubscriptions = McpServer & { isSubscribed?: (id: string) => boolean };

/** Tells the client a conversation changed, when it subscribed to it. */
export async function announceUpdate(server: McpServerWithSubscriptions, id: string): Promise<void> {
  if (!server.isConnected() || server.isSubscribed?.(id) !== true) return;
  await server.server.sendResourceUpdated({ uri: conversationUri(id) });
}
