/**
 * Each provider's model when none is configured and its key is the only one set: the model its
 * own getting-started page starts with (platform.claude.com/docs/en/about-claude/models/overview:
 * "start with Claude Opus 5.5 for most workloads"; developers.openai.com/api/docs/guides/reasoning:
 * "Start with gpt-5.5"; the Gemini API quick-start's model; OpenRouter's auto-router). Read 2026-12-02.
 */
export const QUICK_START_MODELS: Readonly<Record<string, string>> = {
  anthropic: 'anthropic/claude-opus-5-5',
  openai: 'openai/gpt-5.5',
  google: 'google/gemini-2.5-flash',
  openrouter: 'openrouter/openrouter/auto',
};
