import type { ModelFacts, ModelPrice } from './model-info.ts';

/** A row of jp's own table: the facts, the page they were read from, and when (RFD 031, "Keeping a row current"). */
export interface ShippedModel extends ModelFacts {
  id: string;
  source: string;
  checked: string;
}

const CHECKED = '2026-12-02';

// Anthropic. Thinking types per model: platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting
// and each model's "What's new" page; windows, output limits and prices: each model's overview page
// (platform.claude.com/docs/en/models/<model>/overview) and docs/en/about-claude/models/overview.
// Budgets ("enabled"): at least 1 024 and below max_tokens (ThinkingConfigEnabled in the SDK's messages.d.ts).
const ANTHROPIC_MODELS = 'https://platform.claude.com/docs/en/about-claude/models/overview';
const anthropicPage = (model: string) => `https://platform.claude.com/docs/en/models/${model}/overview`;
const claudePrice = (input: number, output: number, cacheRead = input / 10): ModelPrice => ({ input, output, cacheRead, cacheWrite: input * 1.25 });
const ALL_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
const media = { structuredOutput: true, imageInput: true, pdfInput: true } as const;
const budgetOnly = (maxOutputTokens: number) => ({ thinkingTypes: ['enabled', 'disabled'] as const, budget: { min: 1024, max: maxOutputTokens - 1 } });

const anthropic: ShippedModel[] = [
  { id: 'claude-sonnet-4-5', contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: budgetOnly(64_000), ...media, price: claudePrice(3, 15), source: ANTHROPIC_MODELS, checked: CHECKED },
  { id: 'claude-haiku-4-5', contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: budgetOnly(64_000), ...media, price: claudePrice(1, 5), source: ANTHROPIC_MODELS, checked: CHECKED },
  { id: 'claude-opus-4-5', contextWindow: 200_000, maxOutputTokens: 64_000, reasoning: { ...budgetOnly(64_000), efforts: ['low', 'medium', 'high'] }, ...media, price: claudePrice(5, 25), source: ANTHROPIC_MODELS, checked: CHECKED },
  {
    id: 'claude-opus-4-6', contextWindow: 1_000_000, maxOutputTokens: 128_000,
    reasoning: { thinkingTypes: ['adaptive', 'enabled', 'disabled'], efforts: ['low', 'medium', 'high', 'max'], budget: { min: 1024, max: 127_999 } },
    ...media, price: claudePrice(5, 25), source: ANTHROPIC_MODELS, checked: CHECKED,
  },
  {
    id: 'claude-sonnet-4-6', contextWindow: 1_000_000, maxOutputTokens: 64_000,
    reasoning: { thinkingTypes: ['adaptive', 'enabled', 'disabled'], efforts: ['low', 'medium', 'high'], budget: { min: 1024, max: 63_999 } },
    ...media, price: claudePrice(3, 15), source: ANTHROPIC_MODELS, checked: CHECKED,
  },
  { id: 'claude-opus-4-7', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive', 'disabled'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(5, 25), source: ANTHROPIC_MODELS, checked: CHECKED },
  { id: 'claude-opus-4-8', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive', 'disabled'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(5, 25), source: ANTHROPIC_MODELS, checked: CHECKED },
  {
    id: 'claude-mythos-preview', contextWindow: 1_000_000, maxOutputTokens: 128_000,
    reasoning: { thinkingTypes: ['adaptive', 'enabled'], efforts: ['low', 'medium', 'high', 'max'], budget: { min: 1024, max: 127_999 } },
    ...media, source: 'https://platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting', checked: CHECKED,
  },
  { id: 'claude-sonnet-5', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive', 'disabled'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(2, 10), source: anthropicPage('sonnet-5'), checked: CHECKED },
  { id: 'claude-opus-5', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive', 'disabled'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(5, 25), source: anthropicPage('opus-5'), checked: CHECKED },
  { id: 'claude-fable-5', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(10, 50), source: anthropicPage('fable-5'), checked: CHECKED },
  { id: 'claude-mythos-5', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(10, 50), source: anthropicPage('fable-5'), checked: CHECKED },
  { id: 'claude-fable-5-1', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(10, 50), prefixBoundThinking: true, source: anthropicPage('fable-5-1'), checked: CHECKED },
  // The troubleshooting page names Fable 5.1 and the 5.5 family as the models that run the prefix check; Mythos 5.1 is not among them.
  { id: 'claude-mythos-5-1', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(10, 50), source: anthropicPage('fable-5-1'), checked: CHECKED },
  { id: 'claude-opus-5-5', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(4, 20, 0.2), prefixBoundThinking: true, source: anthropicPage('opus-5-5'), checked: CHECKED },
  { id: 'claude-sonnet-5-5', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive', 'between_tools'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(2, 10), prefixBoundThinking: true, source: anthropicPage('sonnet-5-5'), checked: CHECKED },
  // Haiku 5.5 is priced by prompt size; the row keeps the rate for prompts up to 100 000 tokens.
  { id: 'claude-haiku-5-5', contextWindow: 1_000_000, maxOutputTokens: 128_000, reasoning: { thinkingTypes: ['adaptive', 'disabled'], efforts: ALL_EFFORTS }, ...media, price: claudePrice(0.1, 0.5), prefixBoundThinking: true, source: anthropicPage('haiku-5-5'), checked: CHECKED },
];

// OpenAI. Effort values per model: developers.openai.com/api/docs/guides/reasoning ("Some models
// support only a subset") and each model page (developers.openai.com/api/docs/models/<model>);
// prices: developers.openai.com/api/docs/pricing (a cached read at a tenth of input, writes at input).
const openaiPage = (model: string) => `https://developers.openai.com/api/docs/models/${model}`;
const openaiPrice = (input: number, output: number, cacheRead = input / 10): ModelPrice => ({ input, output, cacheRead, cacheWrite: input });
const GPT_5 = ['minimal', 'low', 'medium', 'high'] as const;
const GPT_5_1 = ['none', 'low', 'medium', 'high'] as const;
const GPT_5_2 = ['none', 'low', 'medium', 'high', 'xhigh'] as const;

const openai: ShippedModel[] = [
  { id: 'gpt-5', contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { efforts: GPT_5 }, ...media, price: openaiPrice(1.25, 10), source: openaiPage('gpt-5'), checked: CHECKED },
  { id: 'gpt-5-mini', contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { efforts: GPT_5 }, ...media, price: openaiPrice(0.25, 2), source: openaiPage('gpt-5-mini'), checked: CHECKED },
  { id: 'gpt-5-nano', contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { efforts: GPT_5 }, ...media, price: openaiPrice(0.05, 0.4), source: openaiPage('gpt-5-nano'), checked: CHECKED },
  { id: 'gpt-5-pro', contextWindow: 400_000, maxOutputTokens: 272_000, reasoning: { efforts: ['high'] }, ...media, price: openaiPrice(15, 120), source: openaiPage('gpt-5-pro'), checked: CHECKED },
  { id: 'gpt-5.1', contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { efforts: GPT_5_1 }, ...media, price: openaiPrice(1.25, 10), source: openaiPage('gpt-5.1'), checked: CHECKED },
  { id: 'gpt-5.2', contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { efforts: GPT_5_2 }, ...media, price: openaiPrice(1.75, 14), source: openaiPage('gpt-5.2'), checked: CHECKED },
  { id: 'gpt-5.2-pro', contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { efforts: ['medium', 'high', 'xhigh'] }, ...media, price: openaiPrice(21, 168), source: openaiPage('gpt-5.2-pro'), checked: CHECKED },
  { id: 'gpt-5.4', contextWindow: 1_050_000, maxOutputTokens: 128_000, reasoning: { efforts: GPT_5_2 }, ...media, price: openaiPrice(2.5, 15), source: openaiPage('gpt-5.4'), checked: CHECKED },
  { id: 'gpt-5.4-mini', contextWindow: 400_000, maxOutputTokens: 128_000, reasoning: { efforts: GPT_5_2 }, ...media, price: openaiPrice(0.75, 4.5), source: openaiPage('gpt-5.4-mini'), checked: CHECKED },
  { id: 'gpt-5.5', contextWindow: 1_050_000, maxOutputTokens: 128_000, reasoning: { efforts: GPT_5_2 }, ...media, price: openaiPrice(5, 30), source: openaiPage('gpt-5.5'), checked: CHECKED },
  { id: 'gpt-5.5-pro', contextWindow: 1_050_000, maxOutputTokens: 128_000, reasoning: { efforts: ['medium', 'high', 'xhigh'] }, ...media, price: openaiPrice(30, 180), source: openaiPage('gpt-5.5-pro'), checked: CHECKED },
  { id: 'gpt-4.1', contextWindow: 1_047_576, maxOutputTokens: 32_768, reasoning: false, ...media, price: openaiPrice(2, 8, 0.5), source: openaiPage('gpt-4.1'), checked: CHECKED },
  { id: 'gpt-4.1-mini', contextWindow: 1_047_576, maxOutputTokens: 32_768, reasoning: false, ...media, price: openaiPrice(0.4, 1.6, 0.1), source: openaiPage('gpt-4.1-mini'), checked: CHECKED },
  { id: 'gpt-4o', contextWindow: 128_000, maxOutputTokens: 16_384, reasoning: false, ...media, price: openaiPrice(2.5, 10, 1.25), source: openaiPage('gpt-4o'), checked: CHECKED },
  { id: 'gpt-4o-mini', contextWindow: 128_000, maxOutputTokens: 16_384, reasoning: false, ...media, price: openaiPrice(0.15, 0.6, 0.075), source: openaiPage('gpt-4o-mini'), checked: CHECKED },
];

// Google. Thinking budgets and levels per model: ai.google.dev/gemini-api/docs/thinking; limits:
// ai.google.dev/gemini-api/docs/models/<model>; prices for prompts up to 200 000 tokens:
// ai.google.dev/gemini-api/docs/pricing (a cached read at a tenth of input).
const geminiPage = (model: string) => `https://ai.google.dev/gemini-api/docs/models/${model}`;
const GEMINI_WINDOW = { contextWindow: 1_048_576, maxOutputTokens: 65_536 } as const;

const google: ShippedModel[] = [
  { id: 'gemini-2.5-pro', ...GEMINI_WINDOW, reasoning: { budget: { min: 128, max: 32_768 } }, ...media, price: openaiPrice(1.25, 10), source: geminiPage('gemini-2.5-pro'), checked: CHECKED },
  { id: 'gemini-2.5-flash', ...GEMINI_WINDOW, reasoning: { budget: { min: 1, max: 24_576, off: true } }, ...media, price: openaiPrice(0.3, 2.5), source: geminiPage('gemini-2.5-flash'), checked: CHECKED },
  // Flash-Lite thinks from 512 tokens, and 0 turns it off.
  { id: 'gemini-2.5-flash-lite', ...GEMINI_WINDOW, reasoning: { budget: { min: 512, max: 24_576, off: true } }, ...media, price: openaiPrice(0.1, 0.4), source: geminiPage('gemini-2.5-flash-lite'), checked: CHECKED },
  { id: 'gemini-3-flash-preview', ...GEMINI_WINDOW, reasoning: { efforts: ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] }, ...media, price: openaiPrice(0.5, 3), source: geminiPage('gemini-3-flash-preview'), checked: CHECKED },
  { id: 'gemini-3.1-pro-preview', ...GEMINI_WINDOW, reasoning: { efforts: ['LOW', 'MEDIUM', 'HIGH'] }, ...media, price: openaiPrice(2, 12), source: geminiPage('gemini-3.1-pro-preview'), checked: CHECKED },
  { id: 'gemini-3.1-flash-lite', ...GEMINI_WINDOW, reasoning: { efforts: ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] }, ...media, price: openaiPrice(0.25, 1.5), source: geminiPage('gemini-3.1-flash-lite'), checked: CHECKED },
  { id: 'gemini-3.5-flash', ...GEMINI_WINDOW, reasoning: { efforts: ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] }, ...media, source: geminiPage('gemini-3.5-flash'), checked: CHECKED },
  { id: 'gemini-3.5-flash-lite', ...GEMINI_WINDOW, reasoning: { efforts: ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] }, ...media, source: geminiPage('gemini-3.5-flash-lite'), checked: CHECKED },
];

/** jp's own rows, by provider. OpenRouter's ids find their vendor's row (`find-shipped-model.ts`); Ollama's models are local and listed by the server. */
export const SHIPPED_MODELS: Readonly<Record<'anthropic' | 'openai' | 'google', readonly ShippedModel[]>> = { anthropic, openai, google };
