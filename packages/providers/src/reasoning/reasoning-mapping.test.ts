import { describe, expect, it } from 'vitest';
import { lookupModel } from '../catalog/lookup-model.ts';
import type { ModelInfo } from '../catalog/model-info.ts';
import { anthropicThinking } from './anthropic-thinking.ts';
import { googleThinkingConfig } from './google-thinking-config.ts';
import { openaiCompatibleReasoning } from './openai-compatible-reasoning.ts';
import { openaiReasoning } from './openai-reasoning.ts';
import { nearestLevel, REASONING_LEVELS, reasoningBudget, reasoningLevel } from './reasoning-setting.ts';

const model = (provider: string, id: string): ModelInfo => {
  const info = lookupModel(provider, id);
  if (info === undefined) throw new Error(`no row for ${provider}/${id}`);
  return info;
};
const defaults = { maxTokens: undefined, defaultMaxTokens: 8192 };

describe('reasoningLevel / reasoningBudget / nearestLevel', () => {
  it('a budget becomes the smallest level that covers it', () => {
    expect([0, 1, 1024, 1025, 4096, 9000, 10_001, 64_000, 100_000].map((budgetTokens) => reasoningLevel({ budgetTokens }))).toEqual([
      'off', 'minimal', 'minimal', 'low', 'low', 'medium', 'high', 'xhigh', 'max',
    ]);
    expect(reasoningBudget('off')).toBe(0);
    expect(reasoningBudget({ budgetTokens: 777 })).toBe(777);
  });
  it('the nearest accepted level by rank, the lower one on a tie', () => {
    expect(nearestLevel('minimal', ['low', 'medium', 'high'])).toBe('low');
    expect(nearestLevel('xhigh', ['low', 'medium', 'high', 'max'])).toBe('high');
    expect(nearestLevel('off', ['minimal', 'low'])).toBe('minimal');
    expect(nearestLevel('max', ['none' as never])).toBe('none');
    expect(nearestLevel('high', [])).toBeUndefined();
  });
});

describe('anthropicThinking', () => {
  it('an adaptive-only model: adaptive with the effort; off becomes the lowest effort, named', () => {
    const opus = model('anthropic', 'claude-opus-5-5');
    expect(anthropicThinking('high', opus, defaults)).toEqual({ thinking: { type: 'adaptive' }, effort: 'high', maxTokens: 8192, warnings: [] });
    expect(anthropicThinking('max', opus, { ...defaults, showReasoning: true }).thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(anthropicThinking('off', opus, defaults)).toEqual({
      thinking: { type: 'adaptive' }, effort: 'low', maxTokens: 8192,
      warnings: ['claude-opus-5-5 cannot stop thinking; --reasoning off sends its lowest effort, low'],
    });
    expect(anthropicThinking('minimal', opus, defaults).warnings).toEqual(['claude-opus-5-5 has no minimal effort; low is sent instead (it takes low, medium, high, xhigh, max)']);
  });
  it('off is disabled where the model takes it, between_tools where that is its lowest setting', () => {
    expect(anthropicThinking('off', model('anthropic', 'claude-opus-4-7'), defaults).thinking).toEqual({ type: 'disabled' });
    expect(anthropicThinking('off', model('anthropic', 'claude-sonnet-5-5'), defaults).thinking).toEqual({ type: 'between_tools' });
  });
  it('a budget-only model takes a budget; max_tokens makes room and never passes the model maximum', () => {
    const sonnet = model('anthropic', 'claude-sonnet-4-5');
    expect(anthropicThinking('low', sonnet, defaults)).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 }, maxTokens: 8192, warnings: [] });
    expect(anthropicThinking('high', sonnet, defaults)).toEqual({ thinking: { type: 'enabled', budget_tokens: 32_000 }, maxTokens: 40_192, warnings: [] });
    expect(anthropicThinking('max', sonnet, defaults)).toEqual({ thinking: { type: 'enabled', budget_tokens: 55_808 }, maxTokens: 64_000, warnings: [] });
  });
  it("the user's max_tokens wins over a budget, with a warning; above the model's maximum it is lowered", () => {
    const sonnet = model('anthropic', 'claude-sonnet-4-5');
    const mapped = anthropicThinking('high', sonnet, { maxTokens: 5000, defaultMaxTokens: 8192 });
    expect(mapped).toEqual({ thinking: { type: 'enabled', budget_tokens: 4999 }, maxTokens: 5000, warnings: ['thinking budget lowered from 32000 to 4999 tokens to stay below max_tokens = 5000 on claude-sonnet-4-5'] });
    expect(anthropicThinking(undefined, sonnet, { maxTokens: 100_000, defaultMaxTokens: 8192 })).toEqual({
      maxTokens: 64_000, warnings: ["assistant.max_tokens = 100000 is above claude-sonnet-4-5's maximum of 64000 output tokens; 64000 is sent"],
    });
    expect(anthropicThinking('minimal', sonnet, { maxTokens: 1000, defaultMaxTokens: 8192 }).thinking).toBeUndefined();
  });
  it('an unknown model gets no thinking setting; a budget on an adaptive model becomes an effort, named', () => {
    expect(anthropicThinking('high', undefined, defaults)).toEqual({ maxTokens: 8192, warnings: [] });
    expect(anthropicThinking({ budgetTokens: 5000 }, model('anthropic', 'claude-fable-5-1'), defaults)).toMatchObject({
      effort: 'medium', warnings: ['claude-fable-5-1 takes an effort level, not a budget; a reasoning budget of 5000 tokens is sent as effort medium'],
    });
  });
});

describe('openaiReasoning', () => {
  it("each model's own effort values; off is none or the nearest it has, named", () => {
    expect(openaiReasoning('off', false, model('openai', 'gpt-5'))).toEqual({
      reasoning: { effort: 'minimal' }, warnings: ['gpt-5 has no way to stop reasoning; minimal is sent instead (it takes minimal, low, medium, high)'],
    });
    expect(openaiReasoning('off', true, model('openai', 'gpt-5.1'))).toEqual({ reasoning: { effort: 'none' }, warnings: [] });
    expect(openaiReasoning('minimal', false, model('openai', 'gpt-5.1')).reasoning).toEqual({ effort: 'none' });
    expect(openaiReasoning('xhigh', true, model('openai', 'gpt-5.5'))).toEqual({ reasoning: { effort: 'xhigh', summary: 'auto' }, warnings: [] });
    expect(openaiReasoning('max', false, model('openai', 'gpt-5.2')).reasoning).toEqual({ effort: 'xhigh' });
    expect(openaiReasoning({ budgetTokens: 3000 }, false, model('openai', 'gpt-5')).reasoning).toEqual({ effort: 'low' });
  });
  it('nothing for a model that does not reason, or one jp does not know', () => {
    expect(openaiReasoning('high', false, model('openai', 'gpt-4.1'))).toEqual({ warnings: ['gpt-4.1 does not reason; --reasoning high is not sent'] });
    expect(openaiReasoning('off', false, model('openai', 'gpt-4.1'))).toEqual({ warnings: [] });
    expect(openaiReasoning('high', false, undefined)).toEqual({ warnings: [] });
  });
});

describe('googleThinkingConfig', () => {
  it("Gemini 2.5 budgets stay in the model's range", () => {
    const flash = model('google', 'gemini-2.5-flash');
    expect(googleThinkingConfig('high', flash)).toEqual({ config: { thinkingBudget: 24_576, includeThoughts: true }, warnings: [] });
    expect(googleThinkingConfig('medium', flash)).toEqual({ config: { thinkingBudget: 10_000, includeThoughts: true }, warnings: [] });
    expect(googleThinkingConfig('off', flash)).toEqual({ config: { thinkingBudget: 0 }, warnings: [] });
    expect(googleThinkingConfig({ budgetTokens: 50_000 }, flash).warnings).toEqual(['gemini-2.5-flash thinks with 1–24576 tokens; 24576 is sent instead of 50000']);
    const pro = model('google', 'gemini-2.5-pro');
    expect(googleThinkingConfig('off', pro)).toEqual({ config: { thinkingBudget: 128, includeThoughts: true }, warnings: ['gemini-2.5-pro cannot stop thinking; its smallest budget, 128 tokens, is sent'] });
    expect(googleThinkingConfig('max', pro).config).toEqual({ thinkingBudget: 32_768, includeThoughts: true });
    expect(googleThinkingConfig('off', model('google', 'gemini-2.5-flash-lite')).config).toEqual({ thinkingBudget: 0 });
    expect(googleThinkingConfig('minimal', model('google', 'gemini-2.5-flash-lite')).config).toEqual({ thinkingBudget: 1024, includeThoughts: true });
  });
  it('Gemini 3 takes a level; a level it lacks is the nearest it has', () => {
    const flash = REASONING_LEVELS.map((level) => googleThinkingConfig(level, model('google', 'gemini-3-flash-preview')).config?.thinkingLevel);
    const pro = REASONING_LEVELS.map((level) => googleThinkingConfig(level, model('google', 'gemini-3.1-pro-preview')).config?.thinkingLevel);
    expect(flash).toEqual(['MINIMAL', 'MINIMAL', 'LOW', 'MEDIUM', 'HIGH', 'HIGH', 'HIGH']);
    expect(pro).toEqual(['LOW', 'LOW', 'LOW', 'MEDIUM', 'HIGH', 'HIGH', 'HIGH']);
    expect(googleThinkingConfig('minimal', model('google', 'gemini-3.1-pro-preview')).warnings).toEqual(['gemini-3.1-pro-preview has no minimal thinking level; LOW is sent instead (it takes LOW, MEDIUM, HIGH)']);
  });
});

describe('openaiCompatibleReasoning', () => {
  it('OpenRouter: effort, none for off, max_tokens for a budget, max as xhigh; nothing for a model that does not reason', () => {
    expect(openaiCompatibleReasoning('openrouter', 'low').fields).toEqual({ reasoning: { effort: 'low' } });
    expect(openaiCompatibleReasoning('openrouter', 'off').fields).toEqual({ reasoning: { effort: 'none' } });
    expect(openaiCompatibleReasoning('openrouter', { budgetTokens: 2048 }).fields).toEqual({ reasoning: { max_tokens: 2048 } });
    expect(openaiCompatibleReasoning('openrouter', 'max')).toEqual({ fields: { reasoning: { effort: 'xhigh' } }, warnings: ['OpenRouter has no max effort; xhigh is sent instead'] });
    expect(openaiCompatibleReasoning('openrouter', 'high', model('openrouter', 'openai/gpt-4o')).fields).toEqual({});
  });
  it('Ollama: reasoning_effort, minimal sent as low, none for off, above high as high', () => {
    expect(REASONING_LEVELS.map((level) => openaiCompatibleReasoning('ollama', level).fields.reasoning_effort)).toEqual(['none', 'low', 'low', 'medium', 'high', 'high', 'high']);
  });
});
