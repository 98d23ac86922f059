import { formatResource, type ContentBlock } from '@jp/core';

/**
 * A tool's typed output as the one string OpenAI-style tool results carry: text as is, resources
 * as the tool's `formatted` presentation or `formatResource` (binaries become a one-line
 * placeholder), questions as a line of text; blocks separated by a blank line. A failed call is
 * prefixed with `Error: ` — these APIs have no error flag on tool results.
 */
export function formatToolResultText(content: readonly ContentBlock[], isError: boolean): string {
  const parts: string[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') parts.push(block.text);
        break;
      case 'resource':
        parts.push(block.formatted ?? formatResource(block.resource));
        break;
      case 'question':
        parts.push(`[question ${block.question.id} for the user] ${block.question.text}`);
        break;
    }
  }
  const text = parts.join('\n\n');
  return isError ? `Error: ${text === '' ? 'the tool failed' : text}` : text;
}
