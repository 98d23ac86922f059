import { describe, expect, it } from 'vitest';
import { contextWindowOf } from './context-window.ts';

const none = { providers: {} };
// No cached listing: the cache directory is one that does not exist.
const env = { XDG_CACHE_HOME: '/nonexistent-jp-cache' };

describe('contextWindowOf', () => {
  it("knows the shipped table's models, dated snapshots included, and OpenRouter ids by their vendor", () => {
    expect(contextWindowOf('anthropic', 'claude-sonnet-4-5-20250929', none, env)).toBe(200_000);
    expect(contextWindowOf('anthropic', 'claude-opus-5-5', none, env)).toBe(1_000_000);
    expect(contextWindowOf('openai', 'gpt-5-2025-08-07', none, env)).toBe(400_000);
    expect(contextWindowOf('google', 'gemini-2.5-pro', none, env)).toBe(1_048_576);
    expect(contextWindowOf('openrouter', 'openai/gpt-4o', none, env)).toBe(128_000);
    expect(contextWindowOf('openrouter', 'anthropic/claude-sonnet-4.5', none, env)).toBe(200_000);
  });

  it('takes a configured window over the table, and knows nothing of other models', () => {
    const config = { providers: { anthropic: { models: { 'claude-sonnet-4-5': { context_window: 1_000_000 } } }, echo: { models: { echo: { context_window: 900 } } } } };
    expect(contextWindowOf('anthropic', 'claude-sonnet-4-5-20250929', config, env)).toBe(1_000_000);
    expect(contextWindowOf('echo', 'echo', config, env)).toBe(900);
    expect(contextWindowOf('ollama', 'llama3.2', none, env)).toBeUndefined();
    expect(contextWindowOf('echo', 'echo', none, env)).toBeUndefined();
  });
});
