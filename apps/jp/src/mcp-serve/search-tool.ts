import type { CallToolResult } from '@modelcontextprotocol/server';
import { isJpError } from '@jp/core';
import { hitUri, pipeLines } from '../search/format-hits.ts';
import type { ConversationHits, SearchHit } from '../search/search-hit.ts';
import { searchConversations } from '../search/search-conversations.ts';
import { compilePattern } from '../search/search-pattern.ts';
import { parseScopes } from '../search/search-scope.ts';
import { SearchTimeout, timeBound } from '../search/time-bound.ts';
import type { PathPrivacy } from './public-uri.ts';

export const SEARCH_TOOL = 'search_conversations';

/** What one conversation's search may take before the tool answers with an error instead (RFD 033). */
export const SEARCH_LIMIT_MS = 1000;
export const DEFAULT_HITS = 50;

/** Characters of a matching line sent, around its first match. */
const SHOWN = 240;

export interface SearchToolArguments {
  pattern: string;
  regex?: boolean | undefined;
  scope?: string | string[] | undefined;
  limit?: number | undefined;
  ignoreCase?: boolean | undefined;
}

function shortened(hit: SearchHit): SearchHit {
  if (hit.text.length <= SHOWN) return hit;
  const start = Math.max(0, (hit.ranges[0]?.[0] ?? 0) - SHOWN / 3);
  const text = `${start > 0 ? '…' : ''}${hit.text.slice(start, start + SHOWN)}…`;
  return { ...hit, text, before: [], after: [] };
}

function error(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * The MCP tool `search_conversations {pattern, regex?, scope?, limit?}`: the search of `jp
 * conversation grep` (RFD 033), its hits as `ID:TURN:SCOPE:TEXT` lines and each place as a resource
 * link to its `jp://` URI, which the client reads from this server. The pattern is untrusted: each
 * conversation's search runs under a time limit, and a pattern that exceeds it is an error result.
 */
export function searchTool(jpDir: string, privacy: PathPrivacy, args: SearchToolArguments): CallToolResult {
  const found: ConversationHits[] = [];
  let outcome: ReturnType<typeof searchConversations>;
  try {
    const pattern = compilePattern({ pattern: args.pattern, regex: args.regex, ignoreCase: args.ignoreCase });
    const scopes = parseScopes(typeof args.scope === 'string' ? [args.scope] : args.scope);
    outcome = searchConversations(jpDir, { pattern, scopes, context: 0, limit: args.limit ?? DEFAULT_HITS }, (hits) => found.push(hits), {
      warn: () => undefined,
      guard: timeBound(SEARCH_LIMIT_MS),
    });
  } catch (caught) {
    if (caught instanceof SearchTimeout || isJpError(caught)) return error(caught.message);
    throw caught;
  }
  if (outcome.hits === 0) return { content: [{ type: 'text', text: `no conversation matches ${JSON.stringify(args.pattern)}` }] };
  const lines = found.flatMap((conversation) => pipeLines({ ...conversation, hits: conversation.hits.map(shortened) }, privacy.uri, 0, false));
  const more = outcome.truncated ? `\n(stopped at ${outcome.hits} hits; raise limit or narrow the pattern for more)` : '';
  const links = new Map<string, { type: 'resource_link'; uri: string; name: string; mimeType?: string; description: string }>();
  for (const conversation of found) {
    const title = conversation.title === undefined ? conversation.id : privacy.text(conversation.title);
    for (const hit of conversation.hits) {
      const uri = hitUri(hit);
      if (links.has(uri)) continue;
      const name = hit.snapshot !== undefined ? (hit.snapshot.name ?? privacy.uri(hit.snapshot.uri)) : hit.turn === undefined ? title : `turn ${hit.turn} of ${title}`;
      const mimeType = hit.snapshot !== undefined ? hit.snapshot.mimeType : 'text/markdown';
      links.set(uri, { type: 'resource_link', uri, name, ...(mimeType === undefined ? {} : { mimeType }), description: `${hit.scope} matches in ${hit.conversation}` });
    }
  }
  const header = `${outcome.hits} hit${outcome.hits === 1 ? '' : 's'}, one a line as ID:TURN:SCOPE:TEXT; read jp://conversation/ID/turn/TURN for the whole turn`;
  return { content: [{ type: 'text', text: `${header}\n${privacy.text(lines.join('\n'))}${more}` }, ...links.values()] };
}
