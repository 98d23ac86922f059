import type { ChatCompletionContentPart, ChatCompletionMessageParam } from '../openai/openai-types.ts';

/** Where a user message built from a turn's request can take a marker (`messages[message].content[part]`). */
export interface UserMessageSlots {
  message: number;
  /** The last text part of the message. */
  lastText: number | undefined;
  /** The last text part at or before the message's last resource part; undefined when it has no resources. */
  resourceText: number | undefined;
}

/** Anthropic (behind OpenRouter) takes at most four cache breakpoints per request. */
export const MAX_OPENROUTER_CACHE_MARKERS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/** OpenRouter's extension of a content part; the SDK's types do not know it. */
type MarkedPart = ChatCompletionContentPart & { cache_control?: typeof EPHEMERAL };

/**
 * Puts `cache_control: {type: "ephemeral"}` on text parts (where OpenRouter accepts it), at most
 * four, in this order of importance (duplicates count once):
 * 1. the last text part of the newest user message — everything up to the new query is cached;
 * 2. the last resource part of the newest turn that has resources — attachments are the bulk;
 * 3. the last text part of the user message before — where the previous request wrote its cache,
 *    so the lookup hits it however many messages the tool loop added since.
 * Returns new arrays; the parts it marks are copies, the input is not changed.
 */
export function applyOpenRouterCacheControl(
  messages: readonly ChatCompletionMessageParam[],
  users: readonly UserMessageSlots[],
): ChatCompletionMessageParam[] {
  const newest = users.at(-1);
  const previous = users.at(-2);
  const withResources = users.findLast((slots) => slots.resourceText !== undefined);
  const positions: Array<{ message: number; part: number }> = [];
  for (const [slots, part] of [
    [newest, newest?.lastText],
    [withResources, withResources?.resourceText],
    [previous, previous?.lastText],
  ] as const) {
    if (slots === undefined || part === undefined) continue;
    if (positions.some((seen) => seen.message === slots.message && seen.part === part)) continue;
    positions.push({ message: slots.message, part });
  }

  const result = [...messages];
  for (const { message, part } of positions.slice(0, MAX_OPENROUTER_CACHE_MARKERS)) {
    const original = result[message];
    if (original?.role !== 'user' || !Array.isArray(original.content) || original.content[part] === undefined) continue;
    const content: MarkedPart[] = [...original.content];
    content[part] = { ...content[part]!, cache_control: EPHEMERAL };
    result[message] = { ...original, content } as ChatCompletionMessageParam;
  }
  return result;
}
