import { describe, expect, it } from 'vitest';
import { anthropicThinking } from './anthropic-thinking.ts';
import { googleThinkingConfig } from './google-thinking-config.ts';
import { openaiCompatibleReasoning } from './openai-compatible-reasoning.ts';
import { openaiReasoning } from './openai-reasoning.ts';
import { REASONING_LEVELS, reasoningBudget, reasoningLevel } from './reasoning-setting.ts';

describe('reasoningLevel / reasoningBudget', () => {
  it('a budget becomes the smallest level that covers it', () => {
    expect([0, 1, 1024, 1025, 4096, 9000, 10_001, 100_000].map((budgetTokens) => reasoningLevel({ budgetTokens }))).toEqual([
      'off', 'minimal', 'minimal', 'low', 'low', 'medium', 'high', 'high',
    ]);
  });
  it('levels keep their order as budgets', () => {
    const budgets = REASONING_LEVELS.map((level) => reasoningBudget(level));
    expect(budgets[0]).toBe(0);
    expect([...budgets].sort((a, b) => a - b)).toEqual(budgets);
    expect(reasoningBudget({ budgetTokens: 777 })).toBe(777);
  });
});

describe('anthropicThinking', () => {
  it('off disables thinking and leaves max_tokens alone', () => {
    expect(anthropicThinking('off', undefined, 8192)).toEqual({ thinking: { type: 'disabled' }, maxTokens: 8192, warnings: [] });
  });
  it('a budget under the default keeps the default max_tokens', () => {
    expect(anthropicThinking('low', undefined, 8192)).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 }, maxTokens: 8192, warnings: [] });
  });
  it('a budget over the default raises max_tokens to make room for the answer', () => {
    expect(anthropicThinking('high', undefined, 8192)).toEqual({ thinking: { type: 'enabled', budget_tokens: 32_000 }, maxTokens: 40_192, warnings: [] });
  });
  it('a budget below 1024 is raised to Anthropic minimum', () => {
    expect(anthropicThinking({ budgetTokens: 10 }, undefined, 8192).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });
  it("the user's max_tokens wins: the budget is lowered below it, with a warning", () => {
    const mapped = anthropicThinking('high', 5000, 8192);
    expect(mapped.thinking).toEqual({ type: 'enabled', budget_tokens: 4999 });
    expect(mapped.maxTokens).toBe(5000);
    expect(mapped.warnings).toEqual(['thinking budget lowered from 32000 to 4999 tokens to stay below assistant.max_tokens = 5000']);
  });
  it('a max_tokens with no room for the smallest budget asks for no thinking, with a warning', () => {
    const mapped = anthropicThinking('minimal', 1000, 8192);
    expect(mapped.thinking).toBeUndefined();
    expect(mapped.warnings[0]).toMatch(/assistant\.max_tokens = 1000 leaves no room/);
  });
});

describe('openaiReasoning', () => {
  it('levels are efforts; off is none; a summary only when shown', () => {
    expect(openaiReasoning('medium', false)).toEqual({ effort: 'medium' });
    expect(openaiReasoning('minimal', true)).toEqual({ effort: 'minimal', summary: 'auto' });
    expect(openaiReasoning('off', true)).toEqual({ effort: 'none' });
    expect(openaiReasoning({ budgetTokens: 3000 }, false)).toEqual({ effort: 'low' });
  });
});

describe('googleThinkingConfig', () => {
  it('Gemini 2.5 takes a budget; 0 turns it off except on Pro', () => {
    expect(googleThinkingConfig('gemini-2.5-flash', 'medium')).toEqual({ thinkingBudget: 10_000, includeThoughts: true });
    expect(googleThinkingConfig('gemini-2.5-flash', 'off')).toEqual({ thinkingBudget: 0 });
    expect(googleThinkingConfig('gemini-2.5-pro', 'off')).toEqual({ thinkingBudget: 128, includeThoughts: true });
    expect(googleThinkingConfig('gemini-2.5-flash', { budgetTokens: 500 })).toEqual({ thinkingBudget: 500, includeThoughts: true });
  });
  it('Gemini 3 takes a level; Pro gets the nearest of LOW and HIGH', () => {
    const flash = REASONING_LEVELS.map((level) => googleThinkingConfig('gemini-3-flash-preview', level).thinkingLevel);
    const pro = REASONING_LEVELS.map((level) => googleThinkingConfig('gemini-3-pro-preview', level).thinkingLevel);
    expect(flash).toEqual(['MINIMAL', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH']);
    expect(pro).toEqual(['LOW', 'LOW', 'LOW', 'HIGH', 'HIGH']);
    expect(googleThinkingConfig('gemini-3-pro-preview', { budgetTokens: 50_000 })).toEqual({ thinkingLevel: 'HIGH', includeThoughts: true });
  });
});

describe('openaiCompatibleReasoning', () => {
  it('OpenRouter: effort, none for off, max_tokens for a budget', () => {
    expect(openaiCompatibleReasoning('openrouter', 'low')).toEqual({ reasoning: { effort: 'low' } });
    expect(openaiCompatibleReasoning('openrouter', 'off')).toEqual({ reasoning: { effort: 'none' } });
    expect(openaiCompatibleReasoning('openrouter', { budgetTokens: 2048 })).toEqual({ reasoning: { max_tokens: 2048 } });
  });
  it('Ollama: reasoning_effort, minimal sent as low, none for off', () => {
    expect(REASONING_LEVELS.map((level) => openaiCompatibleReasoning('ollama', level).reasoning_effort)).toEqual(['none', 'low', 'low', 'medium', 'high']);
    expect(openaiCompatibleReasoning('ollama', { budgetTokens: 20_000 })).toEqual({ reasoning_effort: 'high' });
  });
});
