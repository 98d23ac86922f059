import type { ChatRequestEvent, ChatResponseEvent, ConversationEvent, ToolCallRequestEvent, ToolCallResponseEvent } from '../conversation-event.ts';
import type { Resource } from '../resource.ts';
import { isBlobResource, isRefResource, isTextResource } from '../resource-content.ts';

/** What a vendor bills at most for one image (Anthropic: about 1 600 tokens, at 4 bytes a token). */
const IMAGE_BYTES_CAP = 6_400;

const encoder = new TextEncoder();
const utf8Length = (text: string) => encoder.encode(text).byteLength;

/** The bytes of a resource as the model is sent it: its formatted text, else its content. */
function resourceBytes(resource: Resource): number {
  if (resource.formatted !== undefined) return utf8Length(resource.formatted) + utf8Length(resource.uri);
  const size = isRefResource(resource) ? resource.ref.size : isBlobResource(resource) ? resource.blob.byteLength : isTextResource(resource) ? utf8Length(resource.text) : 0;
  const image = resource.mimeType?.startsWith('image/') === true && (isBlobResource(resource) || (isRefResource(resource) && resource.ref.encoding === 'binary'));
  return (image ? Math.min(size, IMAGE_BYTES_CAP) : size) + utf8Length(resource.uri);
}

/** The bytes one event adds to a request: its text, arguments, results and resources. */
export function eventBytes(event: ConversationEvent): number {
  switch (event.type) {
    case 'chat_request': {
      const request = event as ChatRequestEvent;
      return utf8Length(request.content) + request.resources.reduce((sum, resource) => sum + resourceBytes(resource), 0);
    }
    case 'chat_response': {
      const response = event as ChatResponseEvent;
      if (response.message !== undefined) return utf8Length(response.message);
      if (response.reasoning !== undefined) return utf8Length(response.reasoning);
      return utf8Length(JSON.stringify(response.structured) ?? '');
    }
    case 'tool_call_request': {
      const call = event as ToolCallRequestEvent;
      return utf8Length(call.name) + utf8Length(JSON.stringify(call.arguments));
    }
    case 'tool_call_response':
      return (event as ToolCallResponseEvent).content.reduce((sum, block) => {
        if (block.type === 'text') return sum + utf8Length(block.text);
        if (block.type === 'resource') return sum + resourceBytes(block.resource);
        return sum + utf8Length(JSON.stringify(block));
      }, 0);
    default:
      return 0;
  }
}

/** The bytes of a model view (the events after `projectCompactions`): what a request carries of the conversation. */
export function viewBytes(events: readonly ConversationEvent[]): number {
  return events.reduce((sum, event) => sum + eventBytes(event), 0);
}

/** Tokens from bytes, at four bytes a token (RFD 027 says why no tokenizer). */
export function tokensOfBytes(bytes: number): number {
  return Math.ceil(bytes / 4);
}

/**
 * The tokens a request will take, estimated before it is sent. `stream` is the stored stream with
 * the new turn's events; `view` what the model is sent of it. When the stream has a stored usage
 * newer than its newest compaction, the input of that turn's last call is the base, and what came
 * after that call's request — its answer, later turns, the new one — is estimated; otherwise the
 * whole view is. Later events are never compacted (a compaction covers only turns before it), so
 * the two agree on them.
 */
export function estimateRequestTokens(stream: readonly ConversationEvent[], view: readonly ConversationEvent[]): number {
  const anchor = usageAnchor(stream);
  if (anchor === undefined) return tokensOfBytes(viewBytes(view));
  return anchor.tokens + tokensOfBytes(viewBytes(stream.slice(anchor.index)));
}

/**
 * The newest answer whose usage measures its call's input: `lastInputTokens`, or `inputTokens` of a
 * turn with one call (older lines; with tool calls their inputs are summed over the calls). None
 * when a compaction came after it: the usage then measured another view.
 */
function usageAnchor(stream: readonly ConversationEvent[]): { index: number; tokens: number } | undefined {
  for (let index = stream.length - 1; index >= 0; index--) {
    const event = stream[index]!;
    if (event.type === 'compaction') return undefined;
    if (event.type !== 'chat_response') continue;
    const usage = (event as ChatResponseEvent).usage;
    if (usage?.lastInputTokens !== undefined) return { index, tokens: usage.lastInputTokens };
    if (usage?.inputTokens !== undefined && !turnHasToolCalls(stream, index)) return { index, tokens: usage.inputTokens };
  }
  return undefined;
}

function turnHasToolCalls(stream: readonly ConversationEvent[], index: number): boolean {
  for (let i = index; i >= 0 && stream[i]!.type !== 'turn_start'; i--) if (stream[i]!.type === 'tool_call_request') return true;
  return false;
}
