import type { ChatResponseEvent, Turn, Usage } from '@jp/core';

/** A turn's tokens, split the way the chart stacks them; each count is 0 when the provider gave none. */
export interface TurnTokens {
  /** Input tokens neither read from nor written to the prompt cache. */
  uncachedInput: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
  /** The part of `output` spent reasoning, where the vendor says (OpenAI, Gemini; RFD 028). */
  reasoning: number;
  /** Whether the turn recorded usage at all (the echo model records input and output only). */
  recorded: boolean;
}

export const NO_TOKENS: TurnTokens = { uncachedInput: 0, cacheWrite: 0, cacheRead: 0, output: 0, reasoning: 0, recorded: false };

/**
 * The turn's usage: that of its last `chat_response` carrying one. A turn with tool calls makes
 * several model calls; jp stores the sum of them all on the turn's final answer, and the usage of
 * one call on the answers before it, so summing the answers would count calls twice.
 */
export function turnUsage(turn: Turn): Usage | undefined {
  let usage: Usage | undefined;
  for (const event of turn.events) {
    if (event.type === 'chat_response' && (event as ChatResponseEvent).usage !== undefined) usage = (event as ChatResponseEvent).usage;
  }
  return usage;
}

/** `inputTokens` counts cached input too; the uncached part is what is left of it. */
export function turnTokens(usage: Usage | undefined): TurnTokens {
  if (usage === undefined) return NO_TOKENS;
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    uncachedInput: Math.max(0, (usage.inputTokens ?? 0) - cacheRead - cacheWrite),
    cacheWrite,
    cacheRead,
    output: usage.outputTokens ?? 0,
    reasoning: Math.min(usage.reasoningTokens ?? 0, usage.outputTokens ?? 0),
    recorded: true,
  };
}

export function totalTokens(tokens: TurnTokens): number {
  return tokens.uncachedInput + tokens.cacheWrite + tokens.cacheRead + tokens.output;
}

export function addTokens(a: TurnTokens, b: TurnTokens): TurnTokens {
  return {
    uncachedInput: a.uncachedInput + b.uncachedInput,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheRead: a.cacheRead + b.cacheRead,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
    recorded: a.recorded || b.recorded,
  };
}
