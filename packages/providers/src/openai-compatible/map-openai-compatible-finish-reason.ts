import type { FinishReason } from '../provider.ts';

/** A chat-completions `finish_reason` → ours. Unknown or missing reasons are `other`. */
export function mapOpenAICompatibleFinishReason(finishReason: string | null | undefined): FinishReason {
  switch (finishReason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    case 'error':
      return 'error';
    default:
      return 'other';
  }
}
