import { describe, expect, it } from 'vitest';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.ts';

describe('mapOpenAIFinishReason', () => {
  it('maps completed, incomplete and failed responses', () => {
    expect(mapOpenAIFinishReason({ status: 'completed', hasToolCalls: false })).toBe('stop');
    expect(mapOpenAIFinishReason({ status: 'completed', hasToolCalls: true })).toBe('tool-calls');
    expect(mapOpenAIFinishReason({ status: 'incomplete', incompleteReason: 'max_output_tokens', hasToolCalls: false })).toBe('length');
    expect(mapOpenAIFinishReason({ status: 'incomplete', incompleteReason: 'content_filter', hasToolCalls: false })).toBe('content-filter');
    expect(mapOpenAIFinishReason({ status: 'incomplete', incompleteReason: null, hasToolCalls: false })).toBe('other');
    expect(mapOpenAIFinishReason({ status: 'failed', hasToolCalls: false })).toBe('error');
    expect(mapOpenAIFinishReason({ status: 'cancelled', hasToolCalls: false })).toBe('other');
    expect(mapOpenAIFinishReason({ status: undefined, hasToolCalls: true })).toBe('other');
  });
});
