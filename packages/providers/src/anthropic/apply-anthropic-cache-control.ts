import type { ContentBlockParam, MessageCreateParamsStreaming, MessageParam } from './anthropic-types.ts';

/** A content block by position: `messages[message].content[block]`. */
export interface BlockPosition {
  message: number;
  block: number;
}

/** Anthropic accepts at most four cache breakpoints per request. */
export const MAX_ANTHROPIC_CACHE_BREAKPOINTS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/** How long Anthropic keeps a cache entry: 5 minutes (its default) or an hour (costs more to write). */
export type AnthropicCacheTtl = '5m' | '1h';

function lastBlockOf(messages: readonly MessageParam[], role: 'user', skip: number): BlockPosition | undefined {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role !== role || !Array.isArray(message.content) || message.content.length === 0) continue;
    if (seen === skip) return { message: index, block: message.content.length - 1 };
    seen += 1;
  }
  return undefined;
}

/**
 * Puts `cache_control: {type: "ephemeral"}` at real positions, at most four, in this order of
 * importance (duplicates count once):
 * 1. the last block of the newest user message — everything up to the new query is written;
 * 2. the last resource block of the newest turn that has resources — attachments are the bulk;
 * 3. the last block of the user message before — where the previous request wrote its cache, so
 *    the lookup hits it however many blocks the new turn added;
 * 4. the end of the static prefix: the system prompt, or the last tool when there is none.
 * Returns new arrays; the blocks it marks are copies, the input is not changed.
 */
export function applyAnthropicCacheControl(
  request: MessageCreateParamsStreaming,
  newestResourceBlock: BlockPosition | undefined,
  ttl?: AnthropicCacheTtl,
): MessageCreateParamsStreaming {
  const marker = ttl === undefined ? EPHEMERAL : ({ type: 'ephemeral', ttl } as const);
  const messages = request.messages.map((message) =>
    Array.isArray(message.content) ? ({ ...message, content: [...message.content] } as MessageParam) : message,
  );
  const positions: BlockPosition[] = [];
  for (const position of [lastBlockOf(messages, 'user', 0), newestResourceBlock, lastBlockOf(messages, 'user', 1)]) {
    if (position === undefined) continue;
    if (positions.some((seen) => seen.message === position.message && seen.block === position.block)) continue;
    positions.push(position);
  }
  for (const { message, block } of positions.slice(0, MAX_ANTHROPIC_CACHE_BREAKPOINTS)) {
    const content = messages[message]?.content as ContentBlockParam[] | string | undefined;
    if (!Array.isArray(content) || content[block] === undefined) continue;
    content[block] = { ...content[block], cache_control: marker } as ContentBlockParam;
  }
  const result: MessageCreateParamsStreaming = { ...request, messages };
  if (positions.length >= MAX_ANTHROPIC_CACHE_BREAKPOINTS) return result;
  if (Array.isArray(request.system) && request.system.length > 0) {
    const system = [...request.system];
    system[system.length - 1] = { ...system[system.length - 1]!, cache_control: marker };
    result.system = system;
  } else if (request.tools !== undefined && request.tools.length > 0) {
    const tools = [...request.tools];
    tools[tools.length - 1] = { ...tools[tools.length - 1]!, cache_control: marker } as (typeof tools)[number];
    result.tools = tools;
  }
  return result;
}
