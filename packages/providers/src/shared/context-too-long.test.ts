import { describe, expect, it } from 'vitest';
import { isContextTooLong } from './context-too-long.ts';
import { httpStatusError } from './http-status-error.ts';

describe('isContextTooLong', () => {
  it.each([
    ['anthropic', 400, 'prompt is too long: 215384 tokens > 200000 maximum'],
    ['openai', 400, "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens."],
    ['openai', 400, 'Your input exceeds the context window of this model. Please adjust your input and try again.'],
    ['google', 400, 'The input token count (1200345) exceeds the maximum number of tokens allowed (1048576).'],
    ['openrouter', 400, "This endpoint's maximum context length is 8192 tokens. However, you requested about 9500 tokens."],
    ['any', 413, 'request_too_large'],
  ])('%s %i: %s', (_vendor, status, detail) => {
    expect(isContextTooLong(status, detail)).toBe(true);
  });

  it('knows OpenAI’s code whatever the message, and leaves other refusals alone', () => {
    expect(isContextTooLong(400, 'bad', 'context_length_exceeded')).toBe(true);
    expect(isContextTooLong(400, 'max_tokens: must be at most 8192')).toBe(false);
    expect(isContextTooLong(400, 'messages: text content blocks must be non-empty')).toBe(false);
    expect(isContextTooLong(500, 'prompt is too long')).toBe(false);
    expect(isContextTooLong(429, 'too many tokens per minute')).toBe(false);
  });

  it('makes a context_too_long ProviderError that is not retried', () => {
    const error = httpStatusError('anthropic', 400, 'prompt is too long: 215384 tokens > 200000 maximum', { cause: undefined });
    expect(error.code).toBe('context_too_long');
    expect(error.isRetryable).toBe(false);
    expect(error.message).toBe('anthropic: the conversation is too long for the model (400: prompt is too long: 215384 tokens > 200000 maximum)');
    expect(httpStatusError('anthropic', 400, 'max_tokens too large', { cause: undefined }).code).toBe('bad_request');
  });
});
