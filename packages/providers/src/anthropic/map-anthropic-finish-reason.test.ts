import { describe, expect, it } from 'vitest';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.ts';

describe('mapAnthropicFinishReason', () => {
  it('maps every stop reason of the API, and anything else to other', () => {
    const reasons = ['end_turn', 'stop_sequence', 'max_tokens', 'model_context_window_exceeded', 'tool_use', 'refusal', 'pause_turn', 'new_reason', null, undefined];
    expect(reasons.map(mapAnthropicFinishReason)).toEqual(['stop', 'stop', 'length', 'length', 'tool-calls', 'content-filter', 'other', 'other', 'other', 'other']);
  });
});
