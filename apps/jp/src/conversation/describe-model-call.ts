import type { ModelCallEvent } from '@jp/core';

const REASONS: Record<string, string> = {
  tools_changed: 'the tools differ from the previous request',
  system_changed: 'the system prompt differs from the previous request',
  messages_changed: 'an earlier message differs from the previous request',
  model_changed: 'the model differs from the previous request',
  previous_message_not_found: 'the provider had no record of the previous request to compare',
  unavailable: 'the provider could not say',
};

/**
 * What a model call's record says worth showing (issue V): the provider's reason for a prompt-cache
 * miss, with the tokens it would have read from cache, and the thinking blocks it dropped; undefined
 * when it says nothing of note. Text from the provider is untrusted: callers print it through the
 * visible-text filter (RFD 013) as they print any stored text.
 */
export function describeModelCall(event: ModelCallEvent): string[] {
  const lines: string[] = [];
  if (event.cache_miss !== undefined) {
    const why = REASONS[event.cache_miss.reason] ?? event.cache_miss.reason;
    const tokens = event.cache_miss.missedTokens === undefined ? '' : `, ${event.cache_miss.missedTokens.toLocaleString('en-US')} tokens not read from it`;
    lines.push(`cache miss (${event.cache_miss.reason}): ${why}${tokens}`);
  }
  for (const block of event.dropped ?? []) lines.push(`the provider dropped a thinking block at ${block.path} (${block.reason})`);
  return lines;
}
