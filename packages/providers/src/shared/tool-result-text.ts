import { formatResource, loadedResource, type ContentBlock, type QuestionBlock } from '@jp/core';

/** A question a tool asks the user, as the model is told of it. */
export function questionText(block: QuestionBlock): string {
  return `[question ${block.question.id} for the user] ${block.question.text}`;
}

/**
 * A tool's typed output as one text, for vendors whose tool results carry a string: text as is,
 * resources as the tool's `formatted` presentation or `formatResource` (binaries become a one-line
 * placeholder), questions as a line of text; blocks are separated by a blank line.
 */
export function toolResultText(content: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') parts.push(block.text);
        break;
      case 'resource':
        parts.push(block.formatted ?? formatResource(loadedResource(block.resource)));
        break;
      case 'question':
        parts.push(questionText(block));
        break;
    }
  }
  return parts.join('\n\n');
}
