import type { ChatRequestEvent, ChatResponseEvent, ContentBlock, RefResource, ToolCallRequestEvent, ToolCallResponseEvent, Turn } from '@jp/core';
import { snapshotUri } from './jp-uris.ts';
import { fenced, inlineCode } from './markdown-fence.ts';
import type { PathPrivacy } from './public-uri.ts';

export interface RenderTurnOptions {
  conversation: string;
  privacy: PathPrivacy;
  /** The turn's heading level: 2 inside a transcript, 1 on its own. */
  level: 1 | 2;
}

/** One snapshot as a list item: its URI, MIME type, size, sha256, and where to read it. */
function snapshotLine(resource: RefResource, options: RenderTurnOptions): string {
  const { sha256, size } = resource.ref;
  const type = resource.mimeType ?? 'unknown type';
  return `- ${inlineCode(options.privacy.uri(resource.uri))}: ${type}, ${size} bytes, sha256 ${inlineCode(sha256)} (${snapshotUri(options.conversation, sha256)})`;
}

function toolBlock(block: ContentBlock, options: RenderTurnOptions): string {
  switch (block.type) {
    case 'text':
      return fenced(options.privacy.text(block.text));
    case 'resource':
      return snapshotLine(block.resource as RefResource, options);
    case 'question':
      return `Question: ${options.privacy.text(block.question.text)}`;
  }
}

function requestPart(request: ChatRequestEvent, options: RenderTurnOptions): string[] {
  const parts = ['**User**', options.privacy.text(request.content) || '_(empty)_'];
  if (request.schema !== undefined) parts.push('Answer schema:', fenced(JSON.stringify(request.schema, null, 2), 'json'));
  const resources = request.resources as RefResource[];
  if (resources.length > 0) parts.push(`**Resources** (${resources.length})`, resources.map((resource) => snapshotLine(resource, options)).join('\n'));
  return parts;
}

function responsePart(response: ChatResponseEvent, options: RenderTurnOptions): string[] {
  if (response.message !== undefined) return ['**Assistant**', options.privacy.text(response.message)];
  if (response.reasoning !== undefined) return ['**Assistant (reasoning)**', options.privacy.text(response.reasoning).replace(/^/gm, '> ')];
  return ['**Assistant (structured)**', fenced(options.privacy.text(JSON.stringify(response.structured, null, 2)), 'json')];
}

/**
 * One turn as markdown: the query, the resources attached with it (URI, MIME type, size, sha256,
 * and the `jp://` URI of each snapshot), the answer, and each tool call with its result. Pure: the
 * resources carry their content references, no byte is read.
 */
export function renderTurn(turn: Turn, options: RenderTurnOptions): string {
  const heading = `${'#'.repeat(options.level)} Turn ${turn.index}`;
  const when = turn.events[0]?.timestamp;
  const parts: string[] = [when === undefined ? heading : `${heading} (${when})`];
  for (const event of turn.events) {
    switch (event.type) {
      case 'chat_request':
        parts.push(...requestPart(event as ChatRequestEvent, options));
        break;
      case 'chat_response':
        parts.push(...responsePart(event as ChatResponseEvent, options));
        break;
      case 'tool_call_request': {
        const call = event as ToolCallRequestEvent;
        parts.push(`**Tool call** ${inlineCode(call.name)} (id ${inlineCode(call.id)})`, fenced(options.privacy.text(JSON.stringify(call.arguments, null, 2)), 'json'));
        break;
      }
      case 'tool_call_response': {
        const result = event as ToolCallResponseEvent;
        parts.push(`**Tool result** (id ${inlineCode(result.id)}${result.isError ? ', error' : ''})`, ...result.content.map((block) => toolBlock(block, options)));
        break;
      }
      default:
        break;
    }
  }
  return `${parts.join('\n\n')}\n`;
}
