import type { FinishReason } from '../provider.ts';

/** Anthropic's `stop_reason` → ours. Unknown or missing reasons are `other`. */
export function mapAnthropicFinishReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other'; // pause_turn, and whatever a newer API adds
  }
}
