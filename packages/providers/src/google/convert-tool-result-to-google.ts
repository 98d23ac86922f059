import { formatResource, type ContentBlock } from '@jp/core';

/**
 * A tool's typed output as the text of a Gemini `functionResponse`: text as is, resources as the
 * tool's `formatted` presentation or `formatResource` (binaries become a one-line placeholder),
 * questions as a line of text; blocks are separated by a blank line.
 */
export function toolResultText(content: readonly ContentBlock[]): string {
  const pieces: string[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') pieces.push(block.text);
        break;
      case 'resource':
        pieces.push(block.formatted ?? formatResource(block.resource));
        break;
      case 'question':
        pieces.push(`[question ${block.question.id} for the user] ${block.question.text}`);
        break;
    }
  }
  return pieces.join('\n\n');
}

/** The `response` object of a `functionResponse`: Gemini reads `output`, or `error` for a failure. */
export function googleFunctionResponse(content: readonly ContentBlock[], isError: boolean): { output: string } | { error: string } {
  const text = toolResultText(content);
  return isError ? { error: text } : { output: text };
}
