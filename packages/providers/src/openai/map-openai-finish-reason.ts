import type { FinishReason } from '../provider.ts';

/**
 * How a Responses API answer ended → our finish reason. The Responses API has no per-answer stop
 * reason: a `completed` response stopped naturally (or to call tools, when it made function calls),
 * an `incomplete` one says why in `incomplete_details.reason`.
 */
export function mapOpenAIFinishReason(outcome: {
  status: string | null | undefined;
  incompleteReason?: string | null | undefined;
  hasToolCalls: boolean;
}): FinishReason {
  switch (outcome.status) {
    case 'completed':
      return outcome.hasToolCalls ? 'tool-calls' : 'stop';
    case 'incomplete':
      if (outcome.incompleteReason === 'max_output_tokens') return 'length';
      if (outcome.incompleteReason === 'content_filter') return 'content-filter';
      return 'other';
    case 'failed':
      return 'error';
    default:
      return 'other'; // cancelled, and whatever a newer API adds
  }
}
