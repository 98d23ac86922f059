import { describe, expect, it } from 'vitest';
import { contextWindowOf } from './context-window.ts';

const none = { providers: {} };

describe('contextWindowOf', () => {
  it('knows the models jp ships prices for, dated snapshots and aliases included', () => {
    expect(contextWindowOf('anthropic', 'claude-sonnet-4-5-20250929', none)).toBe(200_000);
    expect(contextWindowOf('anthropic', 'claude-sonnet-4', none)).toBe(200_000);
    expect(contextWindowOf('openai', 'gpt-5-2025-08-07', none)).toBe(400_000);
    expect(contextWindowOf('google', 'gemini-2.5-pro', none)).toBe(1_048_576);
    expect(contextWindowOf('openrouter', 'openai/gpt-4o', none)).toBe(128_000);
  });

  it('takes a configured window over the table, and knows nothing of other models', () => {
    const config = { providers: { anthropic: { models: { 'claude-sonnet-4-5': { context_window: 1_000_000 } } }, echo: { models: { echo: { context_window: 900 } } } } };
    expect(contextWindowOf('anthropic', 'claude-sonnet-4-5-20250929', config)).toBe(1_000_000);
    expect(contextWindowOf('echo', 'echo', config)).toBe(900);
    expect(contextWindowOf('ollama', 'llama3.2', none)).toBeUndefined();
    expect(contextWindowOf('echo', 'echo', none)).toBeUndefined();
  });
});
