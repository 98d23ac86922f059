// What the strict OpenRouter stand-in lists (GET /api/v1/models) and which upstream rules its models
// bring (checked 2026-12-02). Prices and context from each model's OpenRouter page
// (https://openrouter.ai/<id>) where one was in reach, otherwise from the vendor's own page:
//   google/gemini-3-flash-preview  $0.50/$3, 1,048,576  https://openrouter.ai/google/gemini-3-flash-preview
//   google/gemini-3.1-flash-lite   $0.25/$1.50, 1,048,576  https://openrouter.ai/google/gemini-3.1-flash-lite
//   google/gemini-3.1-pro-preview  $2/$12  https://inference.sh/apps/openrouter/gemini-3-1-pro-preview (OpenRouter price)
//   google/gemini-2.5-flash        $0.30/$2.50, 65,535 out  https://vercel.com/ai-gateway/models/gemini-2.5-flash
//   anthropic/*                    https://platform.claude.com/docs/en/models/<id>/overview (prices, limits)
//   openai/gpt-5.5                 $5/$30, 1,050,000 / 128,000  https://docs.litellm.ai/blog/gpt_5_5
// `upstream` names the rules a model inherits: Gemini 3 needs its reasoning_details (thought signatures)
// back; a Claude model without adaptive thinking runs manual extended thinking when reasoning is on.

/**
 * @typedef {object} OpenRouterModel
 * @property {string} id
 * @property {string} name
 * @property {number} context
 * @property {number} maxCompletion
 * @property {string[]} input
 * @property {{ prompt: string, completion: string, input_cache_read?: string, input_cache_write?: string }} pricing  USD per token
 * @property {'gemini3' | 'gemini25' | 'claude-extended' | 'claude-adaptive' | 'openai'} upstream
 */

/** @param {number} perMillion */
const perToken = (perMillion) => String(perMillion / 1_000_000);
const REASONING = ['max_tokens', 'reasoning', 'include_reasoning', 'response_format', 'structured_outputs', 'tools', 'tool_choice'];

/** @type {(id: string, name: string, context: number, maxCompletion: number, input: string[], price: [number, number, number?, number?], upstream: OpenRouterModel['upstream']) => OpenRouterModel} */
const model = (id, name, context, maxCompletion, input, [prompt, completion, read, write], upstream) => ({
  id,
  name,
  context,
  maxCompletion,
  input,
  pricing: { prompt: perToken(prompt), completion: perToken(completion), ...(read === undefined ? {} : { input_cache_read: perToken(read) }), ...(write === undefined ? {} : { input_cache_write: perToken(write) }) },
  upstream,
});

const MEDIA = ['text', 'image', 'file'];

/** @type {OpenRouterModel[]} */
export const OPENROUTER_MODELS = [
  model('anthropic/claude-opus-5.5', 'Anthropic: Claude Opus 5.5', 1_000_000, 128_000, MEDIA, [4, 20, 0.2], 'claude-adaptive'),
  model('anthropic/claude-sonnet-5.5', 'Anthropic: Claude Sonnet 5.5', 1_000_000, 128_000, MEDIA, [2, 10, 0.2, 2.5], 'claude-adaptive'),
  model('anthropic/claude-sonnet-4.5', 'Anthropic: Claude Sonnet 4.5', 200_000, 64_000, MEDIA, [3, 15], 'claude-extended'),
  model('google/gemini-3.1-pro-preview', 'Google: Gemini 3.1 Pro Preview', 1_048_576, 65_536, MEDIA, [2, 12], 'gemini3'),
  model('google/gemini-3.1-flash-lite', 'Google: Gemini 3.1 Flash Lite', 1_048_576, 65_536, MEDIA, [0.25, 1.5], 'gemini3'),
  model('google/gemini-3-flash-preview', 'Google: Gemini 3 Flash Preview', 1_048_576, 65_536, MEDIA, [0.5, 3], 'gemini3'),
  model('google/gemini-2.5-flash', 'Google: Gemini 2.5 Flash', 1_048_576, 65_535, MEDIA, [0.3, 2.5], 'gemini25'),
  model('openai/gpt-5.5', 'OpenAI: GPT-5.5', 1_050_000, 128_000, MEDIA, [5, 30], 'openai'),
];

/**
 * A row of GET /api/v1/models (https://openrouter.ai/docs/api-reference/models/get-models).
 * @param {OpenRouterModel} row
 */
export const openRouterModelInfo = (row) => ({
  id: row.id,
  canonical_slug: row.id,
  name: row.name,
  created: 0,
  description: row.name,
  context_length: row.context,
  architecture: { modality: 'text+image->text', input_modalities: row.input, output_modalities: ['text'], tokenizer: row.upstream.startsWith('claude') ? 'Claude' : row.upstream.startsWith('gemini') ? 'Gemini' : 'GPT', instruct_type: null },
  pricing: { request: '0', image: '0', web_search: '0', internal_reasoning: '0', ...row.pricing },
  top_provider: { context_length: row.context, max_completion_tokens: row.maxCompletion, is_moderated: row.upstream === 'openai' },
  per_request_limits: null,
  supported_parameters: REASONING,
});
