import { describe, expect, it } from 'vitest';
import { mapOpenAICompatibleFinishReason } from './map-openai-compatible-finish-reason.ts';

describe('mapOpenAICompatibleFinishReason', () => {
  it('maps the chat-completions finish reasons and treats unknown ones as other', () => {
    const reasons = ['stop', 'length', 'tool_calls', 'function_call', 'content_filter', 'error', 'eos', null, undefined];
    expect(reasons.map(mapOpenAICompatibleFinishReason)).toEqual(['stop', 'length', 'tool-calls', 'tool-calls', 'content-filter', 'error', 'other', 'other', 'other']);
  });
});
