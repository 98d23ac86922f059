import type { ContentBlock } from '@jp/core';
import { toolResultText } from '../shared/tool-result-text.ts';

/**
 * A tool's typed output as the one string OpenAI-style tool results carry (`toolResultText`). A
 * failed call is prefixed with `Error: ` — these APIs have no error flag on tool results.
 */
export function formatToolResultText(content: readonly ContentBlock[], isError: boolean): string {
  const text = toolResultText(content);
  return isError ? `Error: ${text === '' ? 'the tool failed' : text}` : text;
}
