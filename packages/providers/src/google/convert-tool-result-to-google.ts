import type { ContentBlock } from '@jp/core';
import { toolResultText } from '../shared/tool-result-text.ts';

/** The `response` object of a `functionResponse`: Gemini reads `output`, or `error` for a failure. */
export function googleFunctionResponse(content: readonly ContentBlock[], isError: boolean): { output: string } | { error: string } {
  const text = toolResultText(content);
  return isError ? { error: text } : { output: text };
}
